import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../testing/factories";
import { customerMessage, deliver } from "../testing/inbox-fixtures";
import { createSpecSockets } from "../testing/spec-sockets";
import { startSpecServer, type SpecClient } from "../testing/spec-client";
import { createTestApp, type TestApp } from "../testing/test-app";

/**
 * Contract: spec 1 section 7 "Realtime", driven with socket.io-client exactly as a client written against the spec
 * opens it (issue 28, ADR 0068): its backend URL is `<origin>/api`, so the namespace is `/api` (the transport path
 * stays /socket.io/); websocket transport only; the token in the query; it waits for `ready`, then joins.
 */
let t: TestApp;
let api: SpecClient;
let a: Tenant;
let origin: string;
const specSockets = createSpecSockets();
const sockets: Socket[] = [];
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" }, { sender: specSockets.sender });
  origin = await specSockets.start(t);
  api = await startSpecServer(t);
  a = await createTenant(t);
});
afterEach(() => sockets.splice(0).forEach((s) => s.disconnect()));
afterAll(async () => {
  await specSockets.close();
  await api?.close();
});

/** The spec's client: `io(backendUrl, { transports: ["websocket"], query: { token } })`. */
const open = (token: string, backendUrl = `${origin}/api`) => {
  const socket = io(backendUrl, { transports: ["websocket"], query: { token }, reconnection: false });
  sockets.push(socket);
  return socket;
};
type Got = { name: string; data: any }; // payloads are asserted field by field
/** Every event the socket hears, from the first packet on (`ready` included). */
const record = (socket: Socket) => {
  const got: Got[] = [];
  socket.onAny((name: string, data: unknown) => got.push({ name, data }));
  return got;
};
const until = async <T>(what: () => T | undefined | null | false | Promise<T | undefined | null | false>, label: string): Promise<T> => {
  for (let i = 0; i < 500; i++) {
    const v = await what();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${label}`);
};
/** Opens a socket, waits for `ready` and sends the joins the spec's pages send after it. */
const openReady = async (token: string, joins: [string, ...unknown[]][] = [], backendUrl?: string) => {
  const socket = open(token, backendUrl);
  const got = record(socket);
  await until(() => got.some((e) => e.name === "ready"), "ready");
  for (const [name, ...args] of joins) socket.emit(name, ...args);
  return { socket, got };
};
const customer = async (body: string) => {
  const number = `55119${String(71000000 + ++seq * 17)}`;
  await deliver(t, customerMessage(a, { number, body, pushName: `Cliente RT ${seq}` }));
  return number;
};

describe("spec 1 section 7: the socket on the backend URL the client is configured with", () => {
  it("connects on namespace /api with the token in the query over websocket only, says ready, then keeps the joins", async () => {
    const socket = open(a.adminToken);
    const got = record(socket);
    await until(() => socket.connected, "connect on /api");
    expect((socket as unknown as { nsp: string }).nsp).toBe("/api");
    expect((socket.io.engine as unknown as { transport: { name: string } }).transport.name).toBe("websocket");
    await until(() => got.some((e) => e.name === "ready"), "ready");
    expect(got[0]?.name).toBe("ready");

    socket.emit("joinTickets", "pending");
    socket.emit("joinNotification");
    socket.emit("joinChatBox", 42);
    const conns = await until(async () => {
      const list = (await t.container.repos.connections.listByCompany(a.company.id)).filter((c) => c.userId === a.admin.id && c.rooms.length === 3);
      return list.length ? list : undefined;
    }, "joins kept");
    expect(conns[0]!.namespace).toBe("/api");
    expect([...conns[0]!.rooms].sort()).toEqual(["notification", "ticket:42", "tickets:pending"]);
  });

  it("a customer's message arrives as appMessage, and the closed ticket as a ticket update or delete, whole as the HTTP API answers them", async () => {
    const { got } = await openReady(a.adminToken, [["joinTickets", "pending"], ["joinTickets", "open"], ["joinNotification"]]);
    const number = await customer("Olá, preciso de ajuda");
    const message = await until(() => got.find((e) => e.name === `company-${a.company.id}-appMessage` && e.data.message?.body === "Olá, preciso de ajuda"), "appMessage");
    expect(message.data).toMatchObject({ action: "create", ticket: { status: "pending", contact: { number } }, contact: { number } });
    const list = await api.ok("GET", "/tickets", { token: a.adminToken, query: { showAll: "true", pageNumber: 1, status: "pending", searchParam: number } });
    const listed = list.tickets.find((x: { id: number }) => x.id === message.data.ticket.id);
    expect(Object.keys(message.data.ticket).sort()).toEqual(Object.keys(listed).sort());
    const page = await api.ok("GET", `/messages/${listed.id}`, { token: a.adminToken, query: { pageNumber: 1 } });
    const stored = page.messages.find((m: { id: string }) => m.id === message.data.message.id);
    expect(message.data.message).toEqual({ ...stored, ack: message.data.message.ack, updatedAt: message.data.message.updatedAt });

    const mark = got.length;
    await api.ok("PUT", `/tickets/${listed.id}`, { token: a.adminToken, json: { status: "closed", userId: a.admin.id, queueId: listed.queueId } });
    const closed = await until(
      () => got.slice(mark).find((e) => e.name === `company-${a.company.id}-ticket` && ((e.data.action === "update" && e.data.ticket.status === "closed") || (e.data.action === "delete" && e.data.ticketId === listed.id))),
      "closed ticket",
    );
    if (closed.data.action === "update") expect(closed.data.ticket).toMatchObject({ id: listed.id, status: "closed" });
  });

  it("events keep arriving to a socket that joined nothing", async () => {
    const { got } = await openReady(a.adminToken);
    await customer("sem joins");
    await until(() => got.find((e) => e.name === `company-${a.company.id}-appMessage` && e.data.message?.body === "sem joins"), "appMessage without joins");
  });

  it("a presence change carries the whole user as GET /users/{id} answers it (with queues)", async () => {
    await t.container.repos.users.setOnline(a.company.id, a.user.id, false, new Date());
    const admin = await openReady(a.adminToken);
    const attendant = await openReady(a.userToken);
    attendant.socket.emit("userStatus");
    const event = await until(() => admin.got.find((e) => e.name === `company-${a.company.id}-user` && e.data.user?.id === a.user.id && e.data.user.online), "user online");
    const user = await api.ok("GET", `/users/${a.user.id}`, { token: a.adminToken });
    expect(event.data).toEqual({ action: "update", user });
    expect(user.queues).toEqual([expect.objectContaining({ id: a.queues[0]!.id, name: a.queues[0]!.name })]);
    // the attendant's own client replaces its signed-in user with it: it has what the ticket tabs read
    const own = await until(() => attendant.got.find((e) => e.name === `company-${a.company.id}-user` && e.data.user?.id === a.user.id), "own user");
    expect(own.data.user.queues.map((q: { id: number }) => q.id)).toEqual([a.queues[0]!.id]);
  });

  it("serves namespace / as before, and refuses a namespace the API does not have", async () => {
    const root = await openReady(a.adminToken, [["joinNotification"]], origin);
    expect((root.socket as unknown as { nsp: string }).nsp).toBe("/");
    await customer("no namespace raiz");
    await until(() => root.got.find((e) => e.name === `company-${a.company.id}-appMessage` && e.data.message?.body === "no namespace raiz"), "appMessage on /");

    const other = open(a.adminToken, `${origin}/admin`);
    const error = await new Promise<Error>((resolve) => other.once("connect_error", resolve));
    expect(error.message).toBe("Invalid namespace");
  });
});
