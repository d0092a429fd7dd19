import type { Server } from "node:http";
import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { SOCKET_IO_PING_INTERVAL_MS, SOCKET_IO_PING_TIMEOUT_MS } from "@atende/functions/features/realtime/socket-io.protocol";
import { SOCKET_OPEN_JOB, SOCKET_PING_JOB } from "@atende/functions/features/realtime/sockets.service";
import { adminTickets, customerMessage, deliver } from "../../../functions/src/testing/inbox-fixtures";
import { createWsHandler } from "@atende/functions/handlers/ws";
import { runJob } from "@atende/functions/app/jobs-consumer";
import { createApiGatewaySender } from "@atende/functions/platform/realtime/apigateway-sender.adapter";
import { createTenant, type Tenant } from "@atende/functions/testing/factories";
import { createTestApp, type TestApp } from "@atende/functions/testing/test-app";
import { createPublicServer } from "./http-server";
import { createWsGateway, type WsRouteEvent } from "./ws-gateway";
import { base32Decode, totp } from "@atende/functions/features/mfa/totp";

/**
 * The spec's clients speak Socket.IO (issue 17 item 5, ADR 0013). Driven here with the socket.io-client package as
 * the spec's client configures it, through the local origin (/socket.io/), the local API Gateway stand-in, the same
 * WebSocket handler as the Lambda, and the real management API client posting back.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let server: Server;
let url: string;
let gateway: ReturnType<typeof createWsGateway>;
let pump: NodeJS.Timeout;
const routeEvents: WsRouteEvent[] = [];
const sockets: Socket[] = [];

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, "127.0.0.1", () => r((s.address() as { port: number }).port)));

beforeAll(async () => {
  // the gateway needs its route handler first, the container needs the gateway's management port first
  const route: { handler?: ReturnType<typeof createWsHandler> } = {};
  gateway = createWsGateway(async (event) => {
    routeEvents.push(event);
    return route.handler!(event as never);
  });
  const mgmtPort = await listen(gateway.management);
  const sender = createApiGatewaySender(`http://127.0.0.1:${mgmtPort}`, "us-east-1", true);
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" }, { sender });
  route.handler = createWsHandler(t.container);
  server = createPublicServer({ fetch: t.app.fetch, gateway, webDist: "/nonexistent", runtimeConfig: () => ({}) });
  url = `http://127.0.0.1:${await listen(server)}`;
  a = await createTenant(t);
  b = await createTenant(t);
  // The jobs queue's consumer, as its poller runs it: jobs due now (the open packet) run at once; delayed ones
  // (heartbeats, offline checks) wait until a test runs them.
  const running = new Set<unknown>();
  pump = setInterval(() => {
    for (const entry of t.jobs.pending.filter((p) => p.delaySeconds < 1 && !running.has(p))) {
      running.add(entry);
      void runJob(t.container, entry.job).finally(() => t.jobs.pending.splice(t.jobs.pending.indexOf(entry), 1));
    }
  }, 20);
});

afterEach(() => {
  sockets.splice(0).forEach((s) => s.disconnect());
});

afterAll(() => {
  clearInterval(pump);
  gateway.closeAll();
  server.close();
  gateway.management.close();
});

/** Exactly the spec's client: websocket transport only, the token in the query, its 18 s settings (ignored by v4 clients). */
const open = (token: string) => {
  const socket = io(url, { transports: ["websocket"], query: { token }, pingTimeout: 18000, pingInterval: 18000, reconnection: false } as never);
  sockets.push(socket);
  return socket;
};
const connected = (socket: Socket) =>
  new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
/** Every event the socket receives, in order. */
const record = (socket: Socket) => {
  const got: { name: string; data: any }[] = []; // event payloads are asserted field by field
  socket.onAny((name: string, data: unknown) => got.push({ name, data }));
  return got;
};
/** Waits for a condition (an event arriving over the socket, a record written by the handler). */
const until = async <T>(what: () => T | undefined | null | false | Promise<T | undefined | null | false>, label: string): Promise<T> => {
  for (let i = 0; i < 500; i++) {
    const v = await what();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${label}`);
};
const connectionOf = async (companyId: number, userId: number) =>
  (await t.container.repos.connections.listByCompany(companyId)).filter((c) => c.userId === userId);

describe("Socket.IO for the spec's clients", () => {
  it("opens a session with the advertised heartbeat, joins rooms, and receives its company's ticket and message events only", async () => {
    const admin = open(a.adminToken);
    const other = open(b.adminToken);
    await Promise.all([connected(admin), connected(other)]);
    const got = record(admin);
    const otherGot = record(other);

    // the open packet came through a job (API Gateway cannot post during $connect) and advertised our heartbeat
    // (engine.io-client keeps the handshake's values in these fields)
    const engine = admin.io.engine as unknown as { id: string; _pingInterval: number; _pingTimeout: number; transport: { name: string } };
    expect(engine.transport.name).toBe("websocket");
    expect(engine._pingInterval).toBe(SOCKET_IO_PING_INTERVAL_MS);
    expect(engine._pingTimeout).toBe(SOCKET_IO_PING_TIMEOUT_MS);
    expect(admin.id).toBeTruthy();

    admin.emit("joinNotification");
    admin.emit("joinTickets", "pending");
    admin.emit("joinChatBox", 123);
    admin.emit("userStatus");
    const [conn] = await until(async () => {
      const list = await connectionOf(a.company.id, a.admin.id);
      return list[0]?.rooms.length === 3 ? list : undefined;
    }, "rooms");
    // the three joins ran concurrently (as API Gateway runs them): all kept, in whatever order they landed
    expect(conn!.protocol).toBe("socketio");
    expect([...conn!.rooms].sort()).toEqual(["notification", "ticket:123", "tickets:pending"]);
    await until(async () => (await t.container.repos.users.findById(a.company.id, a.admin.id))?.online, "userStatus");

    // a customer writes: the pending ticket and its message reach company A's admin
    const number = "5511900017001";
    await deliver(t, customerMessage(a, { number, body: "Bom dia, quero um orçamento" }));
    const message = await until(() => got.find((e) => e.name === `company-${a.company.id}-appMessage` && e.data.message?.body === "Bom dia, quero um orçamento"), "appMessage");
    expect(message.data).toMatchObject({ action: "create", ticket: { status: "pending" }, contact: { number } });

    // an API call changes the ticket: company-{id}-ticket with action update
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { status: "open", userId: a.admin.id, queueId: a.queues[0]!.id } })).status).toBe(200);
    const update = await until(() => got.find((e) => e.name === `company-${a.company.id}-ticket` && e.data.action === "update" && e.data.ticket?.status === "open"), "ticket update");
    expect(update.data.ticket).toMatchObject({ id: ticket.id, userId: a.admin.id });

    // company B's socket got nothing of A: B's own next event is the first thing it receives
    await deliver(t, customerMessage(b, { number: "5511900017002", body: "Empresa B" }));
    await until(() => otherGot.find((e) => e.name === `company-${b.company.id}-appMessage`), "B's own event");
    expect(otherGot.filter((e) => e.name.includes(`company-${a.company.id}-`))).toEqual([]);
    // (besides `ready`, which says the namespace is connected: ADR 0068)
    expect(otherGot.filter((e) => e.name !== "ready").every((e) => e.name.startsWith(`company-${b.company.id}-`))).toBe(true);
  });

  it("a client whose backend URL is <origin>/api opens namespace /api on /socket.io/, hears ready, and gets its events there (ADR 0068)", async () => {
    const socket = io(`${url}/api`, { transports: ["websocket"], query: { token: a.adminToken }, reconnection: false });
    sockets.push(socket);
    const got = record(socket);
    await connected(socket);
    await until(() => got.some((e) => e.name === "ready"), "ready");
    expect(routeEvents.filter((e) => e.requestContext.routeKey === "$default").some((e) => e.body === "40/api,")).toBe(true);
    socket.emit("joinTickets", "pending");
    await deliver(t, customerMessage(a, { number: "5511900017009", body: "pelo namespace /api" }));
    const message = await until(() => got.find((e) => e.name === `company-${a.company.id}-appMessage` && e.data.message?.body === "pelo namespace /api"), "appMessage on /api");
    expect(message.data).toMatchObject({ action: "create", contact: { number: "5511900017009" } });
  });

  it("an attendant's socket receives the tickets of their queues and not the others'", async () => {
    const attendant = open(a.userToken);
    await connected(attendant);
    const got = record(attendant);
    const number = "5511900017003";
    await deliver(t, customerMessage(a, { number, body: "sem fila ainda" }));
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
    // to the other queue: nothing for this attendant (queue 1 only)
    await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { queueId: a.queues[1]!.id } });
    await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { queueId: a.queues[0]!.id } });
    const first = await until(() => got.find((e) => e.name === `company-${a.company.id}-ticket`), "ticket of queue 1");
    expect(first.data).toMatchObject({ action: "update", ticket: { id: ticket.id, queueId: a.queues[0]!.id } });
    // the earlier events (queue-less, then queue 2) were not delivered: the first one seen is the queue 1 update
    expect(got.filter((e) => e.name === `company-${a.company.id}-appMessage`)).toEqual([]);
  });

  it("answers the platform's pings with pongs", async () => {
    const admin = open(a.adminToken);
    await connected(admin);
    const [conn] = await connectionOf(a.company.id, a.admin.id);
    const pingJob = await until(
      () => t.jobs.pending.find((p) => p.job.type === "feature" && p.job.name === SOCKET_PING_JOB && p.job.payload.connectionId === conn!.connectionId),
      "first heartbeat job",
    );
    expect(pingJob.delaySeconds).toBe(SOCKET_IO_PING_INTERVAL_MS / 1000);
    let pinged = 0;
    admin.io.engine.on("ping", () => pinged++);
    const before = routeEvents.length;
    await runJob(t.container, pingJob.job);
    t.jobs.pending.splice(t.jobs.pending.indexOf(pingJob), 1);
    await until(() => pinged === 1, "client saw the ping");
    await until(
      () => routeEvents.slice(before).find((e) => e.requestContext.routeKey === "$default" && e.requestContext.connectionId === conn!.connectionId && e.body === "3"),
      "pong at $default",
    );
    // the heartbeat goes on: the next job is queued, and running the old one again (SQS redelivery) pings nothing
    const next = t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === SOCKET_PING_JOB && p.job.payload.connectionId === conn!.connectionId);
    expect(next.map((p) => p.job.type === "feature" && p.job.payload.seq)).toEqual([1]);
    await runJob(t.container, pingJob.job);
    expect(t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === SOCKET_PING_JOB && p.job.payload.connectionId === conn!.connectionId)).toHaveLength(1);
  });

  it("reconnects with a refreshed token, as the spec's client does after its token expires", async () => {
    const session = await a.login(a.admin.email);
    a.adminToken = session.token;
    const socket = open(session.token);
    await connected(socket);
    const refreshed = await t.call("POST", "/auth/refresh_token", { cookie: session.cookie });
    expect(refreshed.status).toBe(200);
    socket.disconnect();
    (socket.io.opts as { query: Record<string, string> }).query = { token: refreshed.body.token as string };
    socket.connect();
    await connected(socket);
    expect(routeEvents.filter((e) => e.requestContext.routeKey === "$connect").at(-1)?.queryStringParameters?.token).toBe(refreshed.body.token);
    const got = record(socket);
    await deliver(t, customerMessage(a, { number: "5511900017004", body: "depois da reconexão" }));
    await until(() => got.find((e) => e.name === `company-${a.company.id}-appMessage` && e.data.message?.body === "depois da reconexão"), "event after reconnect");
  });

  it("tells an older session's socket that the account was opened elsewhere, with the user's id the spec's client compares, then closes it", async () => {
    const first = await a.login(a.user.email);
    const socket = open(first.token);
    await connected(socket);
    const got = record(socket);
    const reason = new Promise<string>((r) => socket.once("disconnect", (why) => r(why)));
    const second = await a.login(a.user.email);
    const event = await until(() => got.find((e) => e.name === `company-${a.company.id}-auth`), "auth event");
    expect(event.data).toEqual({ action: "logout", reason: "other-session", user: { id: a.user.id } });
    // one session means one session: the older socket is closed by the server, not only told (issue 27 finding 4)
    expect(await reason).toBe("io server disconnect");
    await deliver(t, customerMessage(a, { number: "5511900017031", body: "depois do segundo login" }));
    expect(got.some((e) => e.data?.message?.body === "depois do segundo login")).toBe(false);
    // the new session's socket opens and stays
    const fresh = open(second.token);
    await connected(fresh);
    expect(fresh.connected).toBe(true);
  });

  it("a second sign-in closes the first session's raw /ws socket too, after the notice", async () => {
    const first = await a.login(a.user.email);
    const ws = new WebSocket(`${url.replace("http", "ws")}/ws?token=${first.token}`);
    const frames: string[] = [];
    ws.addEventListener("message", (m) => frames.push(String(m.data)));
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => resolve());
      ws.addEventListener("error", () => reject(new Error("ws error")));
    });
    await until(async () => (await connectionOf(a.company.id, a.user.id)).length > 0, "socket registered");
    const closed = new Promise<void>((r) => ws.addEventListener("close", () => r()));
    await a.login(a.user.email);
    await closed;
    expect(frames.map((f) => JSON.parse(f) as { event: string; data: unknown })).toContainEqual(
      expect.objectContaining({ event: "auth", data: { action: "logout", reason: "other-session", user: { id: a.user.id } } }),
    );
  });

  it("turning two-factor on ends every other session of the user: tokens, refresh cookies and sockets (both protocols)", async () => {
    const c = await createTenant(t);
    // the session as a copy elsewhere holds it (another device, a stolen cookie): a Socket.IO and a raw socket
    const current = await c.login(c.user.email);
    const io1 = open(current.token);
    await connected(io1);
    const ioClosed = new Promise<string>((r) => io1.once("disconnect", (why) => r(why)));
    const ws = new WebSocket(`${url.replace("http", "ws")}/ws?token=${current.token}`);
    await new Promise<void>((resolve) => ws.addEventListener("open", () => resolve()));
    await until(async () => (await connectionOf(c.company.id, c.user.id)).length === 2, "sockets registered");
    const wsClosed = new Promise<void>((r) => ws.addEventListener("close", () => r()));
    const { secret } = (await t.call("POST", "/auth/mfa/setup", { token: current.token, body: {} })).body as { secret: string };
    const enabled = await t.call("POST", "/auth/mfa/enable", { token: current.token, body: { code: totp(base32Decode(secret), t.clock.now) } });
    expect(enabled.status).toBe(200);
    await wsClosed;
    expect(await ioClosed).toBe("io server disconnect");
    await until(async () => (await connectionOf(c.company.id, c.user.id)).length === 0, "sockets forgotten");
    // the old access token and refresh cookie are dead; the answer's new session works
    expect((await t.call("GET", "/auth/me", { token: current.token })).status).toBe(401);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: current.cookie })).status).toBe(401);
    expect((await t.call("GET", "/auth/me", { token: enabled.body.token as string })).status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
  });

  it("refuses a bad token, and the session of a user who logs out ends with a server disconnect", async () => {
    const bad = open("not-a-token");
    await expect(connected(bad)).rejects.toThrow();
    expect(routeEvents.filter((e) => e.requestContext.routeKey === "$connect").at(-1)?.queryStringParameters).toMatchObject({ EIO: "4", transport: "websocket", token: "not-a-token" });

    const session = await a.login(a.user.email);
    const socket = open(session.token);
    await connected(socket);
    const reason = new Promise<string>((r) => socket.once("disconnect", (why) => r(why)));
    expect((await t.call("DELETE", "/auth/logout", { token: session.token })).status).toBeLessThan(300);
    // "io server disconnect": the client does not reconnect on its own with a dead token
    expect(await reason).toBe("io server disconnect");
    await until(async () => (await connectionOf(a.company.id, a.user.id)).length === 0, "socket forgotten");
  });
});

describe("the open packet's job", () => {
  it("is queued at $connect and only for Socket.IO sockets", async () => {
    const res = await t.container.services.sockets.connect("own-protocol=", a.adminToken, { token: a.adminToken });
    expect(res.statusCode).toBe(200);
    expect(t.jobs.pending.some((p) => p.job.type === "feature" && p.job.name === SOCKET_OPEN_JOB && p.job.payload.connectionId === "own-protocol=")).toBe(false);
    expect((await t.container.services.sockets.connect("polling=", a.adminToken, { token: a.adminToken, EIO: "4", transport: "polling" })).statusCode).toBe(400);
    expect((await t.container.services.sockets.connect("old-eio=", a.adminToken, { token: a.adminToken, EIO: "3", transport: "websocket" })).statusCode).toBe(400);
  });
});
