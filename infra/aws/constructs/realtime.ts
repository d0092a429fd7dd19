import { Duration, Stack } from "aws-cdk-lib";
import { WebSocketApi, WebSocketStage } from "aws-cdk-lib/aws-apigatewayv2";
import { WebSocketLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { IGrantable } from "aws-cdk-lib/aws-iam";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { AtendeFunction } from "./atende-function";
import { handlerEntry } from "./repo-paths";

export interface RealtimeProps {
  readonly table: ITable;
  /** the functions' environment, without WS_MANAGEMENT_ENDPOINT (this construct adds it) */
  readonly environment: Record<string, string>;
  /**
   * the jobs queue, the only queue these routes send to: the ping's offline check, the Socket.IO open packet and
   * the agent status checks of $connect/$disconnect (docs/adr/0044)
   */
  readonly jobsQueue?: IQueue;
}

export const WEBSOCKET_STAGE = "live";

/**
 * The browser's realtime channel (ADR 0004): an API Gateway WebSocket API whose $connect, $disconnect
 * and $default routes all go to one Lambda (functions/src/handlers/ws.ts). Client frames are
 * `{action, data}`, so routes are selected by `$request.body.action`; every action falls to $default.
 */
export class Realtime extends Construct {
  readonly webSocketApi: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly handler: AtendeFunction;

  constructor(scope: Construct, id: string, props: RealtimeProps) {
    super(scope, id);
    this.webSocketApi = new WebSocketApi(this, "WebSocketApi", {
      description: "Atende realtime (browser WebSocket)",
      routeSelectionExpression: "$request.body.action",
    });
    this.stage = new WebSocketStage(this, "Stage", { webSocketApi: this.webSocketApi, stageName: WEBSOCKET_STAGE, autoDeploy: true });

    this.handler = new AtendeFunction(this, "WsFunction", {
      entry: handlerEntry("ws"),
      description: "Atende WebSocket routes ($connect, $disconnect, $default)",
      environment: { ...props.environment, WS_MANAGEMENT_ENDPOINT: this.managementEndpoint },
      timeout: Duration.seconds(10),
    });
    props.table.grantReadWriteData(this.handler);
    props.jobsQueue?.grantSendMessages(this.handler);
    this.grantManageConnections(this.handler);

    const integration = (name: string) => new WebSocketLambdaIntegration(name, this.handler);
    this.webSocketApi.addRoute("$connect", { integration: integration("ConnectIntegration") });
    this.webSocketApi.addRoute("$disconnect", { integration: integration("DisconnectIntegration") });
    this.webSocketApi.addRoute("$default", { integration: integration("DefaultIntegration") });
  }

  /** https://{api}.execute-api.{region}.amazonaws.com/{stage}: where the SDK posts to connections. */
  get managementEndpoint(): string {
    return this.stage.callbackUrl;
  }

  /** wss://{api}.execute-api.{region}.amazonaws.com/{stage}: what the browser opens (from /config.json). */
  get url(): string {
    return this.stage.url;
  }

  /** {api}.execute-api.{region}.amazonaws.com: CloudFront's origin for the spec's clients' /socket.io/ (ADR 0013). */
  get domainName(): string {
    const stack = Stack.of(this);
    return `${this.webSocketApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
  }

  /** execute-api:ManageConnections on this API's connections only. */
  grantManageConnections(grantee: IGrantable): void {
    this.webSocketApi.grantManageConnections(grantee);
  }
}
