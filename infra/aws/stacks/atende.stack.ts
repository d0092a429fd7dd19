import { CfnOutput, RemovalPolicy, Stack, Tags, type StackProps } from "aws-cdk-lib";
import { Key } from "aws-cdk-lib/aws-kms";
import type { Construct } from "constructs";
import { Api } from "../constructs/api";
import { AuthSecrets } from "../constructs/auth-secrets";
import { Data } from "../constructs/data";
import type { FunctionPlatform } from "../constructs/platform-access";
import { Monitoring } from "../constructs/monitoring";
import { Queues } from "../constructs/queues";
import { setStage, type StageName } from "../constructs/stage";
import { Realtime } from "../constructs/realtime";
import { SessionHost } from "../constructs/session-host";
import { Web } from "../constructs/web";
import { Workers } from "../constructs/workers";

export interface AtendeStackProps extends StackProps {
  /** MAIL_FROM of the Lambdas: a bare address (or `Name <address>`) of an SES-verified identity */
  readonly mailFrom: string;
  readonly appVersion: string;
  /** web/dist to upload; leave out to deploy only /config.json (the app bucket keeps what it had) */
  readonly webDistDir?: string;
  /** functions/src/handlers/jobs.ts once it exists: adds the consumer of the `jobs` queue */
  readonly jobsHandlerEntry?: string;
  /** staging or prod (default prod): log retention, removal policies, PITR, names of alarms and dashboard */
  readonly stage?: StageName;
  /** e-mail address subscribed to the alarm topic */
  readonly alarmEmail?: string;
}

/** The address inside `Name <address>`, or the value itself. */
export const bareAddress = (mailFrom: string) => /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;

/** The whole product in one stack: data, secrets, queues, the Lambdas, the session host and the web front. */
export class AtendeStack extends Stack {
  constructor(scope: Construct, id: string, props: AtendeStackProps) {
    super(scope, id, props);
    const stage = props.stage ?? "prod";
    setStage(this, stage);
    // Cost allocation tags (activate them once in Billing > Cost allocation tags).
    Tags.of(this).add("atende:stage", stage);
    Tags.of(this).add("atende:product", "atende");

    const data = new Data(this, "Data");
    const secrets = new AuthSecrets(this, "AuthSecrets");
    const queues = new Queues(this, "Queues");
    // seals the secrets companies give us (model API keys, Cloud API tokens...): yearly rotation, kept on delete
    const secretsKey = new Key(this, "SecretsKey", {
      description: "Atende: seals company secrets (SECRETS_KMS_KEY_ID)",
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Resolved by CloudFormation at deploy time ({{resolve:secretsmanager:...}}): the template holds only
    // the reference, the Lambda configuration holds the value (see docs/deploy.md "Secrets").
    const baseEnvironment: Record<string, string> = {
      TABLE_NAME: data.table.tableName,
      JWT_SECRET: secrets.jwtSecret.secretValue.unsafeUnwrap(),
      JWT_REFRESH_SECRET: secrets.jwtRefreshSecret.secretValue.unsafeUnwrap(),
      ORIGIN_VERIFY_SECRET: secrets.originVerifySecret.secretValue.unsafeUnwrap(),
      PAYMENTS_WEBHOOK_SECRET: secrets.paymentsWebhookSecret.secretValue.unsafeUnwrap(),
      ERASURE_HASH_SECRET: secrets.erasureHashSecret.secretValue.unsafeUnwrap(),
      // Web Push (docs/adr/0097): the API answers the public key, the jobs Lambda signs the pushes with the pair
      VAPID_SECRET: secrets.vapidSecret.secretValue.unsafeUnwrap(),
      QUEUE_URL_INBOUND: queues.inbound.queueUrl,
      QUEUE_URL_OUTBOUND: queues.outbound.queueUrl,
      QUEUE_URL_JOBS: queues.jobs.queueUrl,
      MEDIA_BUCKET: data.mediaBucket.bucketName,
      MAIL_FROM: props.mailFrom,
      APP_VERSION: props.appVersion,
      SECRETS_KMS_KEY_ID: secretsKey.keyArn,
      // the outbound guard (docs/adr/0062): no call to loopback, private or metadata addresses from any Lambda
      OUTBOUND_GUARD: "on",
    };

    const realtime = new Realtime(this, "Realtime", { table: data.table, environment: baseEnvironment, jobsQueue: queues.jobs });
    const platform: FunctionPlatform = {
      environment: { ...baseEnvironment, WS_MANAGEMENT_ENDPOINT: realtime.managementEndpoint },
      table: data.table,
      mediaBucket: data.mediaBucket,
      queues,
      grantManageConnections: (grantee) => realtime.grantManageConnections(grantee),
      mailFrom: bareAddress(props.mailFrom),
      secretsKey,
    };
    const api = new Api(this, "Api", platform);
    const workers = new Workers(this, "Workers", { platform, jobsHandlerEntry: props.jobsHandlerEntry });
    const sessionHost = new SessionHost(this, "SessionHost", { table: data.table, queues, mediaBucket: data.mediaBucket });
    const web = new Web(this, "Web", {
      apiDomainName: api.domainName,
      webSocketUrl: realtime.url,
      webSocketDomainName: realtime.domainName,
      webSocketStage: realtime.stage.stageName,
      webDistDir: props.webDistDir,
      originVerifyValue: secrets.originVerifySecret.secretValue.unsafeUnwrap(),
    });

    const monitoring = new Monitoring(this, "Monitoring", {
      alarmEmail: props.alarmEmail,
      functions: {
        api: api.handler,
        cloudApiWebhook: api.cloudApiWebhook,
        metaWebhook: api.metaWebhook,
        telegramWebhook: api.telegramWebhook,
        ws: realtime.handler,
        tick: workers.tick,
        inbound: workers.inbound,
        ...(workers.jobs ? { jobs: workers.jobs } : {}),
      },
      deadLetters: queues.deadLetters,
      inboundQueue: queues.inbound,
      httpApi: api.httpApi,
      table: data.table,
      sessionHost: sessionHost.service,
    });

    new CfnOutput(this, "AlarmTopicArn", { value: monitoring.topic.topicArn, description: "SNS topic of the alarms" });
    new CfnOutput(this, "AppUrl", { value: `https://${web.distribution.distributionDomainName}`, description: "The web app (and /api)" });
    new CfnOutput(this, "WebSocketUrl", { value: realtime.url, description: "Realtime endpoint (also in /config.json)" });
    new CfnOutput(this, "HttpApiUrl", { value: api.httpApi.apiEndpoint, description: "The HTTP API without CloudFront" });
    new CfnOutput(this, "TableName", { value: data.table.tableName });
    new CfnOutput(this, "MediaBucketName", { value: data.mediaBucket.bucketName });
    new CfnOutput(this, "WebBucketName", { value: web.bucket.bucketName });
  }
}
