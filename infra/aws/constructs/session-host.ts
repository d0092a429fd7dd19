import { Platform } from "aws-cdk-lib/aws-ecr-assets";
import { SubnetType, Vpc } from "aws-cdk-lib/aws-ec2";
import { Cluster, ContainerImage, ContainerInsights, CpuArchitecture, FargateService, FargateTaskDefinition, LogDrivers, OperatingSystemFamily } from "aws-cdk-lib/aws-ecs";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { METRIC, METRICS_SERVICE, metricsNamespace } from "@atende/shared/contracts/metric-names";
import { SESSION_HOST_CAPACITY_DEFAULT } from "@atende/shared/contracts/http/session-hosts";
import { Metric } from "aws-cdk-lib/aws-cloudwatch";
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

/** SIGTERM drain budget of the host (DRAIN_TIMEOUT_MS) and the container's stopTimeout a little above it. */
export const SESSION_HOST_DRAIN_SECONDS = 25;
export const SESSION_HOST_STOP_TIMEOUT_SECONDS = 30;
/** the autoscaling target: sessions per host at 70 % of a host's capacity, room for a host's share after a crash */
export const SESSION_HOST_TARGET_UTILIZATION = 0.7;

/**
 * The WhatsApp session host fleet (docs/adr/0070): Fargate tasks (arm64) in public subnets with a public IP and no
 * inbound rule. Each consumes `outbound.fifo`, sends to `inbound.fifo`, and reads/writes the table (leases, the
 * registry, credentials) and the media bucket. A session is never open twice: the leases (fenced) see to that, so
 * deployments run new tasks beside the old (minHealthyPercent 100, maxHealthyPercent 200) and each old task drains
 * on SIGTERM, handing its connections over host by host. Each task's identity is its task ARN (task metadata).
 * Target tracking on SessionsPerHost keeps hosts at 70 % of SESSION_HOST_CAPACITY.
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
      // SIGTERM drains (hands each lease over) within DRAIN_TIMEOUT_MS; ECS sends SIGKILL after this
      stopTimeout: Duration.seconds(SESSION_HOST_STOP_TIMEOUT_SECONDS),
      environment: {
        TABLE_NAME: props.table.tableName,
        QUEUE_URL_INBOUND: props.queues.inbound.queueUrl,
        QUEUE_URL_OUTBOUND: props.queues.outbound.queueUrl,
        MEDIA_BUCKET: props.mediaBucket.bucketName,
        AWS_REGION: Stack.of(this).region,
        DEFAULT_CHANNEL: "baileys",
        // identity: the task ARN from the task metadata endpoint (ECS_CONTAINER_METADATA_URI_V4, set by ECS)
        SESSION_HOST_CAPACITY: String(SESSION_HOST_CAPACITY_DEFAULT),
        DRAIN_TIMEOUT_MS: String(SESSION_HOST_DRAIN_SECONDS * 1000),
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
      desiredCount: stage.sessionHostTasks.min,
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      assignPublicIp: true,
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
      circuitBreaker: { rollback: true },
    });
    const scaling = this.service.autoScaleTaskCount({ minCapacity: stage.sessionHostTasks.min, maxCapacity: stage.sessionHostTasks.max });
    scaling.scaleToTrackCustomMetric("SessionsPerHost", {
      // each host puts its sessions plus its share of the connections waiting for capacity (host-metrics.ts)
      metric: new Metric({ namespace: metricsNamespace(stage.name), metricName: METRIC.sessionsPerHost, dimensionsMap: { service: METRICS_SERVICE }, statistic: "Average", period: Duration.minutes(1) }),
      targetValue: Math.round(SESSION_HOST_CAPACITY_DEFAULT * SESSION_HOST_TARGET_UTILIZATION),
      scaleOutCooldown: Duration.minutes(2),
      // scale-in drains a host: its connections move, so not in a hurry
      scaleInCooldown: Duration.minutes(15),
    });
  }
}
