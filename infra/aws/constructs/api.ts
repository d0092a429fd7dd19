import { Duration, Fn } from "aws-cdk-lib";
import { HttpApi, HttpMethod, type CfnStage } from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import { Construct } from "constructs";
import { AtendeFunction } from "./atende-function";
import { grantWorkerAccess, type FunctionPlatform } from "./platform-access";
import { handlerEntry } from "./repo-paths";

/** How many Telegram webhook calls run at once at most (the route's throttle; Telegram retries what is refused). */
export const TELEGRAM_WEBHOOK_CONCURRENCY = 20;
/** How many Messenger / Instagram webhook calls run at once at most (Meta retries what is refused; docs/adr/0095). */
export const META_WEBHOOK_CONCURRENCY = 20;
/**
 * The website chat's visitor API (`/api/webchat/{publicKey}/...`, public, called from any site): its own route on the
 * API Lambda with a stage throttle (requests per second, burst), so visitors cannot take the attendants' capacity;
 * the per-session and per-address limits are the feature's (docs/adr/0092).
 */
export const WEBCHAT_ROUTE_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;
export const WEBCHAT_ROUTE_KEY = "ANY /api/webchat/{proxy+}";

/**
 * The HTTP API: one Lambda (the Hono app of functions/src/platform/http/app.ts) behind an API Gateway
 * HTTP API. Everything is under /api, which is also the CloudFront path that reaches it.
 */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  readonly handler: AtendeFunction;

  constructor(scope: Construct, id: string, platform: FunctionPlatform) {
    super(scope, id);
    this.handler = new AtendeFunction(this, "ApiFunction", {
      entry: handlerEntry("api"),
      description: "Atende HTTP API (Hono app under /api)",
      environment: platform.environment,
      // bcrypt is CPU-bound and Lambda CPU grows with memory; API Gateway gives up after 30 s.
      memorySize: 1024,
      timeout: Duration.seconds(29),
    });
    grantWorkerAccess(this.handler, platform);

    this.httpApi = new HttpApi(this, "HttpApi", { description: "Atende HTTP API", createDefaultStage: true });
    const integration = new HttpLambdaIntegration("ApiIntegration", this.handler);
    for (const path of ["/api", "/api/{proxy+}"]) this.httpApi.addRoutes({ path, methods: [HttpMethod.ANY], integration });
    // the website chat's visitor API: the same Lambda, its own route and throttle (stage route settings)
    const [webchatRoute] = this.httpApi.addRoutes({ path: "/api/webchat/{proxy+}", methods: [HttpMethod.ANY], integration });
    const stage = this.httpApi.defaultStage!.node.defaultChild as CfnStage;
    // an L1 map passed as is: CloudFormation's own property names
    stage.routeSettings = { [WEBCHAT_ROUTE_KEY]: { ThrottlingRateLimit: WEBCHAT_ROUTE_THROTTLE.rateLimit, ThrottlingBurstLimit: WEBCHAT_ROUTE_THROTTLE.burstLimit } };
    // the route must exist before the stage names it
    stage.node.addDependency(webchatRoute!);

    // Meta's Cloud API webhooks: a small Lambda that only verifies the signature and enqueues on inbound.fifo
    // (docs/adr/0028-cloud-api-provider.md); the more specific route wins over /api/{proxy+}.
    this.cloudApiWebhook = new AtendeFunction(this, "CloudApiWebhookFunction", {
      entry: handlerEntry("cloud-api-webhook"),
      description: "Atende Cloud API webhook (verify and enqueue)",
      environment: platform.environment,
      memorySize: 256,
      timeout: Duration.seconds(10),
    });
    platform.table.grantReadData(this.cloudApiWebhook);
    platform.queues.inbound.grantSendMessages(this.cloudApiWebhook);
    platform.secretsKey?.grantDecrypt(this.cloudApiWebhook);
    this.httpApi.addRoutes({
      path: "/api/channels/cloud-api/webhook/{hookId}",
      methods: [HttpMethod.GET, HttpMethod.POST],
      integration: new HttpLambdaIntegration("CloudApiWebhookIntegration", this.cloudApiWebhook),
    });
    // Messenger and Instagram (docs/adr/0090): their own small Lambda, verify and enqueue, as the Cloud API's
    this.metaWebhook = new AtendeFunction(this, "MetaWebhookFunction", {
      entry: handlerEntry("meta-webhook"),
      description: "Atende Messenger/Instagram webhook (verify and enqueue)",
      environment: platform.environment,
      memorySize: 256,
      timeout: Duration.seconds(10),
      // its own concurrency cap (the throttle): a flood of events cannot take the API's capacity
      reservedConcurrentExecutions: META_WEBHOOK_CONCURRENCY,
    });
    platform.table.grantReadData(this.metaWebhook);
    platform.queues.inbound.grantSendMessages(this.metaWebhook);
    platform.secretsKey?.grantDecrypt(this.metaWebhook);
    this.httpApi.addRoutes({
      path: "/api/channels/meta/webhook/{hookId}",
      methods: [HttpMethod.GET, HttpMethod.POST],
      integration: new HttpLambdaIntegration("MetaWebhookIntegration", this.metaWebhook),
    });

    // Telegram's webhooks (docs/adr/0088): their own Lambda with its own concurrency cap (the throttle: a flood of
    // updates cannot take the API's capacity), the secret token checked, a file downloaded, then inbound.fifo.
    this.telegramWebhook = new AtendeFunction(this, "TelegramWebhookFunction", {
      entry: handlerEntry("telegram-webhook"),
      description: "Atende Telegram webhook (secret token, files, enqueue)",
      environment: platform.environment,
      memorySize: 512,
      timeout: Duration.seconds(20),
      reservedConcurrentExecutions: TELEGRAM_WEBHOOK_CONCURRENCY,
    });
    platform.table.grantReadData(this.telegramWebhook);
    platform.queues.inbound.grantSendMessages(this.telegramWebhook);
    platform.secretsKey?.grantDecrypt(this.telegramWebhook);
    platform.mediaBucket.grantPut(this.telegramWebhook);
    this.httpApi.addRoutes({
      path: "/api/channels/telegram/webhook/{hookId}",
      methods: [HttpMethod.POST],
      integration: new HttpLambdaIntegration("TelegramWebhookIntegration", this.telegramWebhook),
    });
  }

  readonly cloudApiWebhook: AtendeFunction;
  readonly metaWebhook: AtendeFunction;
  readonly telegramWebhook: AtendeFunction;

  /** `{id}.execute-api.{region}.amazonaws.com`: the CloudFront origin of /api/*. */
  get domainName(): string {
    return Fn.select(2, Fn.split("/", this.httpApi.apiEndpoint));
  }
}
