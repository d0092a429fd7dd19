import { getRequestListener } from "@hono/node-server";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";
import { runJob } from "../app/jobs-consumer";
import { createWsHandler } from "../handlers/ws";
import type { SocketSender } from "../platform/realtime/sender.port";
import type { TestApp } from "./test-app";

/**
 * One origin for the contract suite's realtime part (ADR 0011, 0068), as a spec client sees the local platform:
 * `/api/*` answered by the Hono app and `/socket.io/` upgraded to a WebSocket whose $connect / $default / $disconnect
 * run the same handler as the WebSocket Lambda (handlers/ws.ts), posting back through the sender the container was
 * built with, as API Gateway's stand-in (infra/local/src/ws-gateway.ts) does. Its jobs (the Socket.IO open packet)
 * run as the jobs queue's consumer runs them: due ones at once, delayed ones (heartbeats) left waiting.
 *
 * Use: `const sockets = createSpecSockets(); t = await createTestApp(env, { sender: sockets.sender }); await sockets.start(t)`.
 */
export const createSpecSockets = () => {
  const conns = new Map<string, WebSocket>();
  const sender: SocketSender = {
    async post(connectionId, frame) {
      const ws = conns.get(connectionId);
      if (!ws || ws.readyState !== WebSocket.OPEN) return "gone";
      ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
      return "ok";
    },
    async disconnect(connectionId) {
      conns.get(connectionId)?.close(1000);
    },
  };
  let server: Server | undefined;
  let pump: NodeJS.Timeout | undefined;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 128 * 1024 });

  const start = async (t: TestApp) => {
    const handler = createWsHandler(t.container);
    const route = (connectionId: string, routeKey: "$connect" | "$disconnect" | "$default", extra: { query?: Record<string, string>; body?: string } = {}) =>
      handler({ requestContext: { connectionId, routeKey }, queryStringParameters: extra.query, body: extra.body } as never);
    server = createServer(getRequestListener(t.app.fetch));
    server.on("upgrade", (req, socket, head) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (url.pathname !== "/socket.io/" && url.pathname !== "/socket.io") return void socket.destroy();
      const connectionId = `${randomBytes(12).toString("base64url")}=`;
      void route(connectionId, "$connect", { query: Object.fromEntries(url.searchParams) }).then((res) => {
        if (res.statusCode !== 200) {
          socket.write(`HTTP/1.1 ${res.statusCode} Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
          return void socket.destroy();
        }
        wss.handleUpgrade(req, socket, head, (ws) => {
          conns.set(connectionId, ws);
          ws.on("message", (data) => void route(connectionId, "$default", { body: String(data as Buffer) }));
          ws.on("close", () => {
            conns.delete(connectionId);
            void route(connectionId, "$disconnect");
          });
        });
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const running = new Set<unknown>();
    pump = setInterval(() => {
      for (const entry of t.jobs.pending.filter((p) => p.delaySeconds < 1 && !running.has(p))) {
        running.add(entry);
        void runJob(t.container, entry.job)
          .catch(() => undefined)
          .finally(() => t.jobs.pending.splice(t.jobs.pending.indexOf(entry), 1));
      }
    }, 10);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  const close = async () => {
    clearInterval(pump);
    for (const ws of conns.values()) ws.close(1001);
    wss.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  };

  return { sender, start, close, connectionCount: () => conns.size };
};
