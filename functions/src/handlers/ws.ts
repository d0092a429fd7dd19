import type { APIGatewayProxyWebsocketEventV2 } from "aws-lambda";
import { loadConfig } from "../platform/config";
import { createWsRoot, type WsRoot } from "../app/ws-root";
import { isVisitorHandshake, VISITOR_PING } from "../features/channels/webchat/webchat-sockets";

type WsEvent = APIGatewayProxyWebsocketEventV2 & { queryStringParameters?: Record<string, string | undefined>; headers?: Record<string, string | undefined> };

/**
 * One handler for the WebSocket API's $connect, $disconnect and $default routes. It builds only the sockets
 * (app/ws-root.ts), not the whole container: this Lambda's bundle carries what it runs (ADR 0038).
 */
export const createWsHandler = (root: WsRoot | { services: WsRoot }) => {
  const { sockets, webchatSockets } = "services" in root ? root.services : root;
  return async (event: WsEvent) => {
    const { connectionId, routeKey } = event.requestContext;
    // a website chat visitor's socket (docs/adr/0096): its own token and origin check, its own registry
    if (routeKey === "$connect" && isVisitorHandshake(event.queryStringParameters)) return webchatSockets.connect(connectionId, event.queryStringParameters ?? {}, event.headers);
    if (routeKey === "$disconnect" && (await webchatSockets.disconnect(connectionId))) return { statusCode: 200 };
    if (routeKey === "$default" && event.body === VISITOR_PING) return { statusCode: 200 };
    // our own protocol (/ws) or Socket.IO's (/socket.io/, told apart by its EIO query parameter: ADR 0013)
    if (routeKey === "$connect") return sockets.connect(connectionId, event.queryStringParameters?.token, event.queryStringParameters);
    if (routeKey === "$disconnect") return sockets.disconnect(connectionId);
    return sockets.message(connectionId, event.body);
  };
};

let cached: ReturnType<typeof createWsHandler> | undefined;
export const handler = (event: WsEvent) => (cached ??= createWsHandler(createWsRoot(loadConfig())))(event);
