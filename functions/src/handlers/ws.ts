import type { APIGatewayProxyWebsocketEventV2 } from "aws-lambda";
import { loadConfig } from "../platform/config";
import { createContainer, type Container } from "../app/container";

type WsEvent = APIGatewayProxyWebsocketEventV2 & { queryStringParameters?: Record<string, string | undefined> };

/** One handler for the WebSocket API's $connect, $disconnect and $default routes. */
export const createWsHandler = (container: Container) => async (event: WsEvent) => {
  const { connectionId, routeKey } = event.requestContext;
  const { sockets } = container.services;
  // our own protocol (/ws) or Socket.IO's (/socket.io/, told apart by its EIO query parameter: ADR 0013)
  if (routeKey === "$connect") return sockets.connect(connectionId, event.queryStringParameters?.token, event.queryStringParameters);
  if (routeKey === "$disconnect") return sockets.disconnect(connectionId);
  return sockets.message(connectionId, event.body);
};

let cached: ReturnType<typeof createWsHandler> | undefined;
export const handler = (event: WsEvent) => (cached ??= createWsHandler(createContainer(loadConfig())))(event);
