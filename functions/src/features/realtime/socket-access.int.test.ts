import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../testing/inbox-fixtures";

/**
 * Issue 19 item 4: what a socket receives follows the user's current session and permissions, for our own
 * protocol and for Socket.IO's (ADR 0013).
 */
let t: TestApp;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
});

const PROTOCOLS = [
  { protocol: "atende", query: {} },
  { protocol: "socketio", query: { EIO: "4", transport: "websocket" } },
] as const;

/** The event names a socket received since `from`, decoded from either protocol's frames. */
const eventsOf = (connectionId: string, from: number) =>
  t.sender.frames.slice(from).flatMap(({ connectionId: id, frame }) => {
    if (id !== connectionId) return [];
    if (typeof frame === "string") return frame.startsWith("42") ? [(JSON.parse(frame.slice(2)) as [string, unknown])[0]].filter((name) => name !== "ready") : [];
    const f = frame as { channel: string };
    return [f.channel];
  });

describe.each(PROTOCOLS)("sockets follow the session and the permissions ($protocol)", ({ protocol, query }) => {
  let a: Tenant;
  beforeAll(async () => {
    a = await createTenant(t);
  });

  const open = async (token: string) => {
    const id = `${protocol}-${++seq}=`;
    expect((await t.container.services.sockets.connect(id, token, { ...query, token })).statusCode).toBe(200);
    expect((await t.container.repos.connections.findById(id))?.protocol).toBe(protocol);
    // a Socket.IO client connects its namespace ("/" here) before anything else (ADR 0068)
    if (protocol === "socketio") expect((await t.container.services.sockets.message(id, "40")).statusCode).toBe(200);
    return id;
  };
  const closed = async (id: string) => {
    expect(t.sender.gone.has(id)).toBe(true);
    expect(await t.container.repos.connections.findById(id)).toBeNull();
  };
  const newUser = async (queueIds: number[]) => {
    const email = `${protocol}-${++seq}-${a.company.id}@teste.com`;
    const res = await t.call("POST", "/users", { token: a.adminToken, body: { name: "Outro", email, password: "Senha1234", profile: "user", queueIds } });
    expect(res.status).toBe(201);
    const { token, cookie } = await a.login(email);
    return { id: res.body.id as number, token, cookie };
  };

  it("logout closes the user's sockets and nothing of the company reaches them afterwards", async () => {
    const u = await newUser([a.queues[0]!.id]);
    const id = await open(u.token);
    const other = await open(a.adminToken);
    expect((await t.call("DELETE", "/auth/logout", { token: u.token })).status).toBeLessThan(300);
    await closed(id);
    const mark = t.sender.frames.length;
    await t.container.services.realtime.publish(a.company.id, "tag", { action: "delete", tagId: 1 }, { kind: "company" });
    expect(eventsOf(id, mark)).toEqual([]);
    // the other user's socket is untouched
    expect(eventsOf(other, mark)).toEqual([`company-${a.company.id}-tag`]);
    expect(t.sender.gone.has(other)).toBe(false);
  });

  it("a password change closes the user's sockets, by an admin or by the user", async () => {
    const u = await newUser([a.queues[0]!.id]);
    const byAdmin = await open(u.token);
    expect((await t.call("PUT", `/users/${u.id}`, { token: a.adminToken, body: { password: "OutraSenha99" } })).status).toBe(200);
    await closed(byAdmin);

    const v = await newUser([a.queues[0]!.id]);
    const bySelf = await open(v.token);
    expect((await t.call("PUT", `/users/${v.id}`, { token: v.token, body: { password: "OutraSenha99" } })).status).toBe(200);
    await closed(bySelf);
  });

  it("a password reset by emailed code closes the user's sockets", async () => {
    const u = await newUser([a.queues[0]!.id]);
    const id = await open(u.token);
    const email = (await t.container.repos.users.findById(a.company.id, u.id))!.email;
    expect((await t.call("POST", `/forgetpassword/${encodeURIComponent(email)}`, { address: `9.8.7.${++seq % 250}` })).status).toBe(200);
    const code = [...t.mailer.sent].reverse().find((m) => m.to === email)?.text.match(/código de verificação é: (\d{6})/)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect((await t.call("POST", `/resetpasswords/${email}/${code}/NovaSenha9`, { address: `9.8.6.${seq % 250}` })).status).toBe(200);
    await closed(id);
  });

  it("deleting a user closes their sockets", async () => {
    const u = await newUser([a.queues[0]!.id]);
    const id = await open(u.token);
    expect((await t.call("DELETE", `/users/${u.id}`, { token: a.adminToken })).status).toBeLessThan(300);
    await closed(id);
  });

  it("a deleted user's token cannot open a socket", async () => {
    const u = await newUser([a.queues[0]!.id]);
    expect((await t.call("DELETE", `/users/${u.id}`, { token: a.adminToken })).status).toBeLessThan(300);
    expect((await t.container.services.sockets.connect(`${protocol}-late=`, u.token, { ...query, token: u.token })).statusCode).toBe(401);
    expect(await t.container.repos.connections.findById(`${protocol}-late=`)).toBeNull();
  });

  it("a queue change keeps the socket open and from then on delivers only the new queue's tickets", async () => {
    const [q1, q2] = a.queues as [(typeof a.queues)[0], (typeof a.queues)[0]];
    const u = await newUser([q1.id]);
    const id = await open(u.token);
    const number = `55119${String(a.company.id).padStart(4, "0")}${protocol === "atende" ? "1" : "2"}001`;
    await deliver(t, customerMessage(a, { number, body: "Oi" }));
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;

    // in the user's queue: received
    let mark = t.sender.frames.length;
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { queueId: q1.id } })).status).toBe(200);
    expect(eventsOf(id, mark)).toContain(`company-${a.company.id}-ticket`);

    // moved from the first queue to the second: the socket stays, its permissions follow
    expect((await t.call("PUT", `/users/${u.id}`, { token: a.adminToken, body: { queueIds: [q2.id] } })).status).toBe(200);
    expect(t.sender.gone.has(id)).toBe(false);
    expect((await t.container.repos.connections.findById(id))?.queueIds).toEqual([q2.id]);

    mark = t.sender.frames.length;
    await deliver(t, customerMessage(a, { number, body: "ainda na fila 1" }));
    expect(eventsOf(id, mark)).toEqual([]);

    mark = t.sender.frames.length;
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { queueId: q2.id } })).status).toBe(200);
    await deliver(t, customerMessage(a, { number, body: "agora na fila 2" }));
    const received = eventsOf(id, mark);
    expect(received).toContain(`company-${a.company.id}-ticket`);
    expect(received).toContain(`company-${a.company.id}-appMessage`);
  });

  it("a profile change applies at once: promoted to admin, the socket receives the tickets only admins see", async () => {
    const u = await newUser([]);
    const id = await open(u.token);
    const number = `55119${String(a.company.id).padStart(4, "0")}${protocol === "atende" ? "3" : "4"}001`;
    let mark = t.sender.frames.length;
    await deliver(t, customerMessage(a, { number, body: "sem fila" }));
    expect(eventsOf(id, mark)).toEqual([]);

    expect((await t.call("PUT", `/users/${u.id}`, { token: a.adminToken, body: { profile: "admin" } })).status).toBe(200);
    expect(t.sender.gone.has(id)).toBe(false);
    mark = t.sender.frames.length;
    await deliver(t, customerMessage(a, { number, body: "de novo" }));
    expect(eventsOf(id, mark)).toContain(`company-${a.company.id}-appMessage`);

    // and back: nothing again
    expect((await t.call("PUT", `/users/${u.id}`, { token: a.adminToken, body: { profile: "user" } })).status).toBe(200);
    mark = t.sender.frames.length;
    await deliver(t, customerMessage(a, { number, body: "mais uma" }));
    expect(eventsOf(id, mark)).toEqual([]);
  });
});
