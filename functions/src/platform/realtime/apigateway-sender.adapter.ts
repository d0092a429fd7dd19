import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from "@aws-sdk/client-apigatewaymanagementapi";
import type { SocketSender } from "./sender.port";
import { traced } from "../tracer";

/** API Gateway's management API; locally the same client talks to infra/local's gateway. */
export const createApiGatewaySender = (endpoint: string, region: string, local: boolean): SocketSender => {
  const client = traced(new ApiGatewayManagementApiClient({
    endpoint,
    region,
    ...(local ? { credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
  }));
  return {
    async post(connectionId, frame) {
      try {
        await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(typeof frame === "string" ? frame : JSON.stringify(frame)) }));
        return "ok";
      } catch (e) {
        if (e instanceof GoneException || (e as Error).name === "GoneException") return "gone";
        throw e;
      }
    },
    async disconnect(connectionId) {
      try {
        await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (e) {
        if (!(e instanceof GoneException || (e as Error).name === "GoneException")) throw e;
      }
    },
  };
};
