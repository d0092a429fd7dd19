import { Platform } from "aws-cdk-lib/aws-ecr-assets";
import { SubnetType, Vpc } from "aws-cdk-lib/aws-ec2";
import { Cluster, ContainerImage, CpuArchitecture, FargateService, FargateTaskDefinition, LogDrivers, OperatingSystemFamily } from "aws-cdk-lib/aws-ecs";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { IgnoreMode, RemovalPolicy, Stack } from "aws-cdk-lib";
import { Construct } from "constructs";
import type { Queues } from "./queues";
import { REPO_ROOT } from "./repo-paths";

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
    const cluster = new Cluster(this, "Cluster", { vpc });

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
        logGroup: new LogGroup(this, "Logs", { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
      }),
      environment: {
        TABLE_NAME: props.table.tableName,
        QUEUE_URL_INBOUND: props.queues.inbound.queueUrl,
        QUEUE_URL_OUTBOUND: props.queues.outbound.queueUrl,
        MEDIA_BUCKET: props.mediaBucket.bucketName,
        AWS_REGION: Stack.of(this).region,
        DEFAULT_CHANNEL: "baileys",
        // A fixed identity: the replacement task (never running beside the old one) reclaims the leases at once.
        HOST_ID: "fargate-session-host",
      },
    });

    props.table.grantReadWriteData(taskDefinition.taskRole);
    props.queues.outbound.grantConsumeMessages(taskDefinition.taskRole);
    props.queues.inbound.grantSendMessages(taskDefinition.taskRole);
    props.mediaBucket.grantReadWrite(taskDefinition.taskRole);

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
