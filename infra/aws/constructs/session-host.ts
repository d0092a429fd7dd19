import { Platform } from "aws-cdk-lib/aws-ecr-assets";
import { SubnetType, Vpc } from "aws-cdk-lib/aws-ec2";
import { Cluster, ContainerImage, ContainerInsights, CpuArchitecture, FargateService, FargateTaskDefinition, LogDrivers, OperatingSystemFamily } from "aws-cdk-lib/aws-ecs";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { METRICS_SERVICE, metricsNamespace } from "@atende/shared/contracts/metric-names";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { Duration, IgnoreMode, Stack } from "aws-cdk-lib";
import { Construct } from "constructs";
import type { Queues } from "./queues";
import { REPO_ROOT } from "./repo-paths";
import { stageOf } from "./stage";

/** The session host's health endpoint inside the task (ECS container health check; nothing outside reaches it). */
export const SESSION_HOST_HEALTH_PORT = 8080;

export interface SessionHostProps {
  readonly table: ITable;
  readonly queues: Queues;
  readonly mediaBucket: IBucket;
}

/**
 * The Docker build context is the repository root (the image needs the workspace manifests, shared/ and
 * session-host/). Only those are staged: everything else is excluded, so synth copies a few hundred KB and
 * the image hash does not change when the web app or the functions change.
 */
export const SESSION_HOST_BUILD_CONTEXT_EXCLUDE = [
  "*",
  "!package.json",
  "!package-lock.json",
  "!shared",
  "!session-host",
  "!functions/package.json",
  "!web/package.json",
  "!infra/package.json",
  "**/node_modules",
  "**/dist",
  "**/.data",
  "**/*.test.ts",
];

/**
 * The always-on WhatsApp session host: one Fargate task (arm64) in a public subnet with a public IP and no
 * inbound rule. It consumes `outbound.fifo`, sends to `inbound.fifo`, and reads/writes the table (session
 * leases, credentials) and the media bucket. Exactly one task ever runs: a WhatsApp session must not be
 * open twice, so deployments stop the old task before starting the new one (minHealthyPercent 0).
 */
export class SessionHost extends Construct {
  readonly service: FargateService;

  constructor(scope: Construct, id: string, props: SessionHostProps) {
    super(scope, id);
    // Public subnets only and no NAT gateway: the task needs outbound internet (WhatsApp, AWS APIs) and nothing inbound.
    const vpc = new Vpc(this, "Vpc", {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: "public", subnetType: SubnetType.PUBLIC, cidrMask: 24 }],
    });
    const stage = stageOf(this);
    // Container Insights: RunningTaskCount feeds the "below desired count" alarm (constructs/monitoring.ts).
    const cluster = new Cluster(this, "Cluster", { vpc, containerInsightsV2: ContainerInsights.ENABLED });

    const taskDefinition = new FargateTaskDefinition(this, "Task", {
      cpu: 512,
      memoryLimitMiB: 1024,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    taskDefinition.addContainer("session-host", {
      image: ContainerImage.fromAsset(REPO_ROOT, {
        file: "session-host/Dockerfile",
        platform: Platform.LINUX_ARM64,
        exclude: SESSION_HOST_BUILD_CONTEXT_EXCLUDE,
        // .dockerignore semantics: a negated path re-includes a file inside an excluded folder.
        ignoreMode: IgnoreMode.DOCKER,
      }),
      logging: LogDrivers.awsLogs({
        streamPrefix: "session-host",
        logGroup: new LogGroup(this, "Logs", { retention: stage.logRetention, removalPolicy: stage.removalPolicy }),
      }),
      // GET /health answers 503 when the lease heartbeat stalled (session-host/src/platform/health.http.ts).
      healthCheck: {
        command: ["CMD", "node", "-e", `fetch('http://127.0.0.1:${SESSION_HOST_HEALTH_PORT}/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))`],
        interval: Duration.seconds(30),
        timeout: Duration.seconds(5),
        retries: 3,
        startPeriod: Duration.seconds(60),
      },
      environment: {
        TABLE_NAME: props.table.tableName,
        QUEUE_URL_INBOUND: props.queues.inbound.queueUrl,
        QUEUE_URL_OUTBOUND: props.queues.outbound.queueUrl,
        MEDIA_BUCKET: props.mediaBucket.bucketName,
        AWS_REGION: Stack.of(this).region,
        DEFAULT_CHANNEL: "baileys",
        // A fixed identity: the replacement task (never running beside the old one) reclaims the leases at once.
        HOST_ID: "fargate-session-host",
        HEALTH_PORT: String(SESSION_HOST_HEALTH_PORT),
        POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
        POWERTOOLS_METRICS_NAMESPACE: metricsNamespace(stage.name),
      },
    });

    props.table.grantReadWriteData(taskDefinition.taskRole);
    props.queues.outbound.grantConsumeMessages(taskDefinition.taskRole);
    props.queues.inbound.grantSendMessages(taskDefinition.taskRole);
    props.mediaBucket.grantReadWrite(taskDefinition.taskRole);
    // the lease heartbeat's metric (session-host/src/platform/lease-metrics.ts), in this stage's namespace only
    taskDefinition.taskRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ["cloudwatch:PutMetricData"],
        resources: ["*"],
        conditions: { StringEquals: { "cloudwatch:namespace": metricsNamespace(stage.name) } },
      }),
    );

    this.service = new FargateService(this, "Service", {
      cluster,
      taskDefinition,
      desiredCount: 1,
      minHealthyPercent: 0,
      maxHealthyPercent: 100,
      assignPublicIp: true,
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
      circuitBreaker: { rollback: true },
    });
  }
}
