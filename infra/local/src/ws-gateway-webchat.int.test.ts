import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { adminTickets, deliver } from "../../../functions/src/testing/inbox-fixtures";
import { createWsHandler } from "@atende/functions/handlers/ws";
import { createApiGatewaySender } from "@atende/functions/platform/realtime/apigateway-sender.adapter";
import { createMemoryInboundQueue } from "@atende/functions/platform/queues/sqs-inbound.adapter";
import { createTenant, type Tenant } from "@atende/functions/testing/factories";
import { createTestApp, type TestApp } from "@atende/functions/testing/test-app";
import { createPublicServer } from "./http-server";
import { createWsGateway } from "./ws-gateway";

/**
 * The website chat visitor's realtime (issue 31 item 3, docs/adr/0096) through the local origin's /socket.io/, the
 * local API Gateway stand-in, the same WebSocket handler as the Lambda and the management API posting back: a
 * visitor token opens a socket only from an allowed origin, and that socket gets that visitor's replies and nothing
 * else (not another visitor's, not another company's, not internal notes, not the agents' events).
 */
const SHOP = "http://shop.localhost:9000";
const inbound = createMemoryInboundQueue();
let t: TestApp;
let a: Tenant;
let b: Tenant;
let server: Server;
let url: string;
let gateway: ReturnType<typeof createWsGateway>;
const opened: WebSocket[] = [];

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, "127.0.0.1", () => r((s.address() as { port: number }).port)));

beforeAll(async () => {
  const route: { handler?: ReturnType<typeof createWsHandler> } = {};
  gateway = createWsGateway(async (event) => route.handler!(event as never));
  const mgmtPort = await listen(gateway.management);
  const sender = createApiGatewaySender(`http://127.0.0.1:${mgmtPort}`, "us-east-1", true);
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" }, { sender, overrides: { inbound } });
  route.handler = createWsHandler(t.container);
  server = createPublicServer({ fetch: t.app.fetch, gateway, webDist: "/nonexistent", runtimeConfig: () => ({}) });
  url = `http://127.0.0.1:${await listen(server)}`;
  a = await createTenant(t, { plan: { connections: 5 } });
  b = await createTenant(t, { plan: { connections: 5 } });
});

afterAll(async () => {
  opened.forEach((ws) => ws.close());
  gateway.closeAll();
  await new Promise<void>((r) => gateway.management.close(() => r()));
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

let sites = 0;
const connection = async (tenant: Tenant) => {
  const res = await t.call("POST", "/whatsapp", { token: tenant.adminToken, body: { name: `Site ${++sites}`, provider: "webchat", allowedOrigins: [SHOP] } });
  expect(res.status).toBe(200);
  return (await t.container.webchat.repo.byConnection(tenant.company.id, res.body.id as number))!.publicKey;
};
const api = (key: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}) =>
  t.call(init.method ?? "GET", `/webchat/${key}/${path}`, { token: init.token, body: init.body, address: "203.0.113.50", headers: { origin: SHOP } });

/** A visitor who wrote once: their token, ticket and open socket (every frame it receives kept in `frames`). */
const visitorWithSocket = async (tenant: Tenant, key: string, name: string) => {
  const token = (await api(key, "sessions", { method: "POST", body: { name } })).body.token as string;
  expect((await api(key, "messages", { method: "POST", token, body: { body: `oi, sou ${name}` } })).status).toBe(201);
  await deliver(t, ...inbound.events.splice(0));
  const ticket = (await adminTickets(t, tenant)).find((x) => x.contact.name === name)!;
  const ws = await openSocket(key, token, SHOP);
  const frames: { type: string; message: { id: string; fromMe: boolean; body: string } }[] = [];
  ws.on("message", (data) => frames.push(JSON.parse(String(data))));
  return { token, ticket, ws, frames };
};
const openSocket = (key: string, token: string | undefined, origin: string | undefined) =>
  new Promise<WebSocket>((resolve, reject) => {
    const query = new URLSearchParams({ webchat: key, ...(token ? { token } : {}) });
    const ws = new WebSocket(`${url.replace("http", "ws")}/socket.io/?${query}`, origin ? { origin } : {});
    opened.push(ws);
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => reject(Object.assign(new Error(`status ${res.statusCode}`), { status: res.statusCode })));
    ws.once("error", reject);
  });
const refused = (key: string, token: string | undefined, origin: string | undefined) => openSocket(key, token, origin).then(() => 101, (e: { status?: number }) => e.status);
const reply = async (tenant: Tenant, ticketId: number, body: string) => {
  const res = await t.call("POST", `/messages/${ticketId}`, { token: tenant.adminToken, body: { body } });
  expect(res.status).toBe(201);
  await deliver(t, ...inbound.events.splice(0));
};

describe("a website chat visitor's socket", () => {
  it("opens only with the visitor's own token, from an allowed origin, on the token's own connection", async () => {
    const keyA = await connection(a);
    const keyB = await connection(b);
    const token = (await api(keyA, "sessions", { method: "POST", body: {} })).body.token as string;
    expect(await refused(keyA, token, "https://evil.example")).toBe(403);
    expect(await refused(keyA, token, undefined)).toBe(403);
    expect(await refused(keyA, "forged", SHOP)).toBe(401);
    expect(await refused(keyA, undefined, SHOP)).toBe(401);
    // A's token on B's key (same allowed origin) is no session there
    expect(await refused(keyB, token, SHOP)).toBe(401);
    expect(await refused("wk_unknown", token, SHOP)).toBe(401);
    expect(await refused(keyA, token, SHOP)).toBe(101);
  });

  it("gets the agent's reply at once, and never another visitor's or another company's messages, internal notes or agents' events", async () => {
    const keyA = await connection(a);
    const keyB = await connection(b);
    const one = await visitorWithSocket(a, keyA, "Visitante Um");
    const two = await visitorWithSocket(a, keyA, "Visitante Dois");
    const other = await visitorWithSocket(b, keyB, "Visitante de B");

    // internal note on one's ticket, replies to two and to B's visitor: none of it reaches one
    const note = await t.call("POST", "/ticket-notes", { token: a.adminToken, body: { note: "nota interna: cliente difícil", ticketId: one.ticket.id, contactId: one.ticket.contact.id } });
    expect(note.status).toBeLessThan(300);
    await reply(a, two.ticket.id, "resposta para o dois");
    await reply(b, other.ticket.id, "resposta da empresa B");
    await vi.waitFor(() => expect(two.frames.map((f) => f.message.body)).toEqual(["resposta para o dois"]));
    await vi.waitFor(() => expect(other.frames.map((f) => f.message.body)).toEqual(["resposta da empresa B"]));

    await reply(a, one.ticket.id, "Olá, Um! Já vamos ver.");
    await vi.waitFor(() => expect(one.frames).toHaveLength(1));
    expect(one.frames[0]).toMatchObject({ type: "message", message: { fromMe: true, body: "Olá, Um! Já vamos ver.", mediaType: "chat", mediaName: null } });
    // the same id the visitor API answers (the widget shows it once)
    const read = await api(keyA, "messages", { token: one.token });
    expect(read.body.messages.at(-1)).toMatchObject({ id: one.frames[0]!.message.id, fromMe: true });
    // a reply to one never went to two, nor to B's visitor
    await new Promise((r) => setTimeout(r, 150));
    expect(two.frames).toHaveLength(1);
    expect(other.frames).toHaveLength(1);
    // nothing of the agents' realtime (ticket updates, notes) on any visitor socket: only message frames
    expect([...one.frames, ...two.frames, ...other.frames].every((f) => Object.keys(f).sort().join() === "message,type" && f.type === "message")).toBe(true);

    // the keep-alive frame is accepted; a closed socket is forgotten ($disconnect)
    one.ws.send('{"action":"webchat.ping"}');
    const id = (await t.container.webchat.repo.socketsOf(a.company.id, (await t.container.webchat.repo.session(await sha(one.token), new Date()))!.visitorId))[0]!.connectionId;
    one.ws.close();
    await vi.waitFor(async () => expect(await t.container.webchat.repo.socket(id)).toBeNull());
  });
});

const sha = async (s: string) => (await import("node:crypto")).createHash("sha256").update(s).digest("hex");
