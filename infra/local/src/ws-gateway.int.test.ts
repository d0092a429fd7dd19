import { ApiGatewayManagementApiClient, GetConnectionCommand, GoneException, PostToConnectionCommand, DeleteConnectionCommand } from "@aws-sdk/client-apigatewaymanagementapi";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createWsGateway, type WsRouteEvent } from "./ws-gateway";

const events: WsRouteEvent[] = [];
let server: Server;
let port: number;
let mgmtPort: number;
let gateway: ReturnType<typeof createWsGateway>;
let client: ApiGatewayManagementApiClient;

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, "127.0.0.1", () => r((s.address() as { port: number }).port)));

beforeAll(async () => {
  gateway = createWsGateway(async (event) => {
    events.push(event);
    if (event.requestContext.routeKey === "$connect" && event.queryStringParameters?.token !== "good") return { statusCode: 401 };
    return { statusCode: 200 };
  });
  server = createServer();
  server.on("upgrade", (req, socket, head) => void gateway.handleUpgrade(req, socket, head));
  port = await listen(server);
  mgmtPort = await listen(gateway.management);
  client = new ApiGatewayManagementApiClient({ endpoint: `http://127.0.0.1:${mgmtPort}`, region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "x" } });
});

afterAll(() => {
  gateway.closeAll();
  server.close();
  gateway.management.close();
});

const open = (token: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`);
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`status ${res.statusCode}`)));
  });

const connectEventFor = (ws: WebSocket) => {
  void ws;
  const connect = events.filter((e) => e.requestContext.routeKey === "$connect").at(-1);
  return connect!.requestContext.connectionId;
};

describe("local WebSocket gateway (API Gateway contract)", () => {
  it("refuses the handshake when $connect answers non-2xx", async () => {
    await expect(open("bad")).rejects.toThrow(/401/);
  });

  it("invokes $connect with the query string, $default with the body, and the SDK client can post back", async () => {
    const ws = await open("good");
    const connectionId = connectEventFor(ws);
    const received = new Promise<string>((r) => ws.once("message", (d) => r(d.toString())));
    ws.send(JSON.stringify({ action: "joinNotification" }));
    await new Promise((r) => setTimeout(r, 100));
    const message = events.find((e) => e.requestContext.routeKey === "$default" && e.requestContext.connectionId === connectionId);
    expect(message?.body).toBe(JSON.stringify({ action: "joinNotification" }));

    await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from('{"event":"ticket"}') }));
    expect(await received).toBe('{"event":"ticket"}');
    const info = await client.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(info.ConnectedAt).toBeInstanceOf(Date);

    const closed = new Promise<void>((r) => ws.once("close", () => r()));
    await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    await closed;
    await new Promise((r) => setTimeout(r, 100));
    expect(events.some((e) => e.requestContext.routeKey === "$disconnect" && e.requestContext.connectionId === connectionId)).toBe(true);
  });

  it("answers GoneException for a socket that does not exist", async () => {
    await expect(client.send(new PostToConnectionCommand({ ConnectionId: "nope=", Data: Buffer.from("x") }))).rejects.toBeInstanceOf(GoneException);
  });
});
