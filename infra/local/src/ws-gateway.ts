import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";

/** What API Gateway hands the WebSocket route Lambdas (the fields our handler reads). */
export type WsRouteEvent = {
  requestContext: {
    routeKey: "$connect" | "$disconnect" | "$default";
    eventType: "CONNECT" | "DISCONNECT" | "MESSAGE";
    connectionId: string;
    connectedAt: number;
    requestTimeEpoch: number;
    domainName: string;
    stage: string;
    apiId: string;
    requestId: string;
    messageId?: string;
    identity: { sourceIp: string };
  };
  queryStringParameters?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded: boolean;
};
export type WsRouteHandler = (event: WsRouteEvent) => Promise<{ statusCode: number; body?: string } | void>;

const MAX_MESSAGE_BYTES = 128 * 1024;
const IDLE_MS = 10 * 60_000;
const MAX_CONNECTION_MS = 2 * 3600_000;

type Conn = { ws: WebSocket; connectedAt: number; lastActiveAt: number; sourceIp: string; timers: NodeJS.Timeout[] };

/**
 * A local stand-in for API Gateway's WebSocket API that keeps its contract: the $connect / $disconnect /
 * $default routes invoke the same handler the Lambdas run, and the management API
 * (POST/GET/DELETE /@connections/{id}) answers like AWS's, so @aws-sdk/client-apigatewaymanagementapi works unchanged.
 */
export const createWsGateway = (
  handler: WsRouteHandler,
  opts: { idleMs?: number; maxConnectionMs?: number; warn?: (message: string, detail: string) => void } = {},
) => {
  const warn = opts.warn ?? ((message: string, detail: string) => console.warn(`[ws-gateway] ${message}`, detail));
  const conns = new Map<string, Conn>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  wss.on("error", (err) => warn("server error", err.message));

  const baseContext = (connectionId: string, conn: { connectedAt: number; sourceIp: string }) => ({
    connectionId,
    connectedAt: conn.connectedAt,
    requestTimeEpoch: Date.now(),
    domainName: "localhost",
    stage: "local",
    apiId: "local",
    requestId: randomBytes(8).toString("hex"),
    identity: { sourceIp: conn.sourceIp },
  });

  const invoke = async (event: WsRouteEvent) => {
    try {
      return (await handler(event)) ?? { statusCode: 200 };
    } catch (err) {
      console.error("[ws-gateway] route handler failed", event.requestContext.routeKey, err);
      return { statusCode: 500 };
    }
  };

  const close = (connectionId: string, code = 1000) => {
    const conn = conns.get(connectionId);
    if (conn) conn.ws.close(code);
  };

  /** Upgrade handler for the public server (path /ws). */
  const handleUpgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client that resets the TCP connection while $connect runs must not take the process down.
    const onSocketError = (err: Error) => warn("socket error before upgrade", err.message);
    socket.on("error", onSocketError);
    const url = new URL(req.url ?? "/", "http://localhost");
    const connectionId = randomBytes(12).toString("base64url") + "=";
    const connectedAt = Date.now();
    const sourceIp = req.socket.remoteAddress ?? "unknown";
    const result = await invoke({
      requestContext: { ...baseContext(connectionId, { connectedAt, sourceIp }), routeKey: "$connect", eventType: "CONNECT" },
      queryStringParameters: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      isBase64Encoded: false,
    });
    if (result.statusCode < 200 || result.statusCode > 299) {
      socket.write(`HTTP/1.1 ${result.statusCode} Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
      return;
    }
    if (socket.destroyed) return;
    wss.handleUpgrade(req, socket, head, (ws) => {
      socket.off("error", onSocketError);
      // A hostile frame (over MAX_MESSAGE_BYTES, or text that is not UTF-8) makes \`ws\` close this socket with 1009
      // or 1007 and emit 'error': handled here, it ends that one socket and nothing else (an unhandled 'error'
      // would end the process, DynamoDB Local with it).
      ws.on("error", (err) => warn(`closed socket ${connectionId} on a bad frame`, err.message));
      const conn: Conn = { ws, connectedAt, lastActiveAt: Date.now(), sourceIp, timers: [] };
      conns.set(connectionId, conn);
      const idle = () => setTimeout(() => close(connectionId, 1001), opts.idleMs ?? IDLE_MS);
      let idleTimer = idle();
      conn.timers.push(setTimeout(() => close(connectionId, 1001), opts.maxConnectionMs ?? MAX_CONNECTION_MS));
      ws.on("message", (data, isBinary) => {
        conn.lastActiveAt = Date.now();
        clearTimeout(idleTimer);
        idleTimer = idle();
        void invoke({
          requestContext: { ...baseContext(connectionId, conn), routeKey: "$default", eventType: "MESSAGE", messageId: randomBytes(6).toString("hex") },
          body: isBinary ? Buffer.from(data as Buffer).toString("base64") : data.toString(),
          isBase64Encoded: isBinary,
        });
      });
      ws.on("close", () => {
        clearTimeout(idleTimer);
        conn.timers.forEach(clearTimeout);
        conns.delete(connectionId);
        void invoke({
          requestContext: { ...baseContext(connectionId, conn), routeKey: "$disconnect", eventType: "DISCONNECT" },
          isBase64Encoded: false,
        });
      });
    });
  };

  const gone = (res: ServerResponse) => {
    res.writeHead(410, { "content-type": "application/json", "x-amzn-errortype": "GoneException" });
    res.end(JSON.stringify({ message: "GoneException" }));
  };

  /** The management API, on its own loopback-only port (in AWS it is IAM-protected, never public). */
  const management: Server = createServer((req, res) => {
    const match = /^\/(?:[^/]+\/)?@connections\/([^/?]+)/.exec(req.url ?? "");
    if (!match?.[1]) {
      res.writeHead(404).end();
      return;
    }
    const connectionId = decodeURIComponent(match[1]);
    const conn = conns.get(connectionId);
    if (!conn || conn.ws.readyState !== WebSocket.OPEN) return gone(res);
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ connectedAt: new Date(conn.connectedAt).toISOString(), lastActiveAt: new Date(conn.lastActiveAt).toISOString(), identity: { sourceIp: conn.sourceIp } }));
      return;
    }
    if (req.method === "DELETE") {
      close(connectionId);
      res.writeHead(204).end();
      return;
    }
    if (req.method === "POST") {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        if (body.length > MAX_MESSAGE_BYTES) {
          res.writeHead(413, { "content-type": "application/json", "x-amzn-errortype": "PayloadTooLargeException" });
          res.end(JSON.stringify({ message: "Message too long" }));
          return;
        }
        conn.ws.send(body.toString("utf8"));
        res.writeHead(200).end();
      });
      return;
    }
    res.writeHead(405).end();
  });

  return {
    handleUpgrade,
    management,
    connectionCount: () => conns.size,
    closeAll: () => {
      for (const id of conns.keys()) close(id, 1001);
      wss.close();
    },
  };
};
export type WsGateway = ReturnType<typeof createWsGateway>;
