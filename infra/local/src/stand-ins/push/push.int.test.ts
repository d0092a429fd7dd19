import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJob } from "@atende/functions/app/jobs-consumer";
import { createTenant, type Tenant } from "@atende/functions/testing/factories";
import { makeOperator } from "@atende/functions/testing/operator";
import { createTestApp, type TestApp } from "@atende/functions/testing/test-app";
import { customerMessage, deliver } from "@atende/functions/testing/inbox-fixtures";
import { createPushServiceStandIn, type PushServiceStandIn } from "./push-service.http";
import { createTestSubscription, decryptPushBody, type TestPushSubscription } from "./push-keys";

/**
 * Web Push end to end on the server (issue 32, docs/adr/0097): real inbound events, the real jobs and the real
 * `web-push` encryption, to a push-service stand-in over HTTP; each test subscription keeps its private key, so the
 * test reads the payload as the browser would.
 */
let t: TestApp;
let a: Tenant;
let push: PushServiceStandIn;
let server: Server;
let base = "";
let n = 0;

beforeAll(async () => {
  push = createPushServiceStandIn();
  server = createServer(getRequestListener((req) => push.fetch(req)));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  // one queue: a new customer goes straight to it (no menu) and waits there
  a = await createTenant(t, { queues: [{ name: "Vendas", color: "#111111" }] });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Runs every queued job (SQS does in AWS and on one machine), except delayed push retries unless asked. */
const drainJobs = async (opts: { retries?: boolean } = {}) => {
  for (let guard = 0; guard < 50; guard++) {
    const i = t.jobs.pending.findIndex((p) => opts.retries || p.job.type !== "push.deliver");
    if (i < 0) return;
    const [next] = t.jobs.pending.splice(i, 1);
    await runJob(t.container, next!.job).catch(() => undefined);
  }
};
const subscribe = async (token: string, lang = "pt") => {
  const sub = createTestSubscription(`${base}/simulator/push/send/dev-${++n}`);
  const res = await t.call("POST", "/push/subscriptions", { token, body: { endpoint: sub.endpoint, keys: sub.keys, lang } });
  expect(res.status).toBe(201);
  return sub;
};
const idOf = (sub: TestPushSubscription) => sub.endpoint.split("/").pop()!;
const arrivedFor = (sub: TestPushSubscription, from = 0) => push.received.slice(from).filter((r) => r.id === idOf(sub));
const read = (sub: TestPushSubscription, from = 0) => arrivedFor(sub, from).map((r) => JSON.parse(decryptPushBody(r.body, sub)) as { title: string; body: string; url: string; tag: string });
const online = (token: string) => t.call("PUT", "/agents/me/status", { token, body: { status: "online" } });

describe("Web Push", () => {
  let userSub: TestPushSubscription;
  let adminSub: TestPushSubscription;
  let ticket: { id: number; uuid: string; status: string };
  const number = "5511911112222";

  it("a ticket that starts waiting in a queue pushes its online users (encrypted, VAPID-signed, TTL and Urgency high)", async () => {
    userSub = await subscribe(a.userToken);
    adminSub = await subscribe(a.adminToken, "en");
    await online(a.userToken);
    // the admin stays offline: no queue pushes (ADR 0032)
    const from = push.received.length;
    await deliver(t, customerMessage(a, { number, body: "Quero um orçamento", pushName: "Maria Cliente" }));
    // nothing is sent from the inbound path: only a job was queued
    expect(push.received.length).toBe(from);
    expect(t.jobs.pending.some((p) => p.job.type === "push.notify")).toBe(true);
    await drainJobs();
    const tickets = (await t.call("GET", "/tickets?showAll=true", { token: a.adminToken })).body.tickets as { id: number; uuid: string; status: string }[];
    ticket = tickets[0]!;
    expect(ticket.status).toBe("pending");
    const got = arrivedFor(userSub, from);
    expect(got).toHaveLength(1);
    expect(got[0]!.headers).toMatchObject({ urgency: "high", ttl: String(4 * 3600), "content-encoding": "aes128gcm" });
    expect(got[0]!.headers.authorization).toMatch(/^vapid t=.+, k=/);
    expect(got[0]!.headers.authorization).toContain(`k=${(await t.call("GET", "/push/public-key", { token: a.userToken })).body.publicKey}`);
    expect(read(userSub, from)).toEqual([{ title: "Cliente aguardando", body: "Maria Cliente está aguardando atendimento", url: `/tickets/${ticket.uuid}`, tag: `ticket-${ticket.uuid}` }]);
    expect(arrivedFor(adminSub, from)).toHaveLength(0);
  });

  it("a customer message on an owned ticket pushes its owner, without the text unless the company allows previews", async () => {
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.userToken, body: { status: "open", userId: a.user.id } })).status).toBe(200);
    await drainJobs();
    let from = push.received.length;
    await deliver(t, customerMessage(a, { number, body: "Meu CPF é 123", pushName: "Maria Cliente" }));
    await drainJobs();
    expect(read(userSub, from)).toEqual([{ title: "Nova mensagem", body: "Nova mensagem de Maria Cliente", url: `/tickets/${ticket.uuid}`, tag: `ticket-${ticket.uuid}` }]);
    expect(arrivedFor(adminSub, from)).toHaveLength(0);

    expect((await t.call("PUT", "/settings/pushPreviews", { token: a.adminToken, body: { value: "enabled" } })).status).toBe(200);
    from = push.received.length;
    await deliver(t, customerMessage(a, { number, body: "Pode ser amanhã?" }));
    await drainJobs();
    expect(read(userSub, from).map((p) => p.body)).toEqual(["Maria Cliente: Pode ser amanhã?"]);
  });

  it("no push while one of the owner's sockets has the ticket open", async () => {
    await t.container.services.sockets.connect("push-user", a.userToken);
    await t.container.services.sockets.message("push-user", JSON.stringify({ action: "joinChatBox", data: ticket.uuid }));
    const from = push.received.length;
    await deliver(t, customerMessage(a, { number, body: "Está aí?" }));
    await drainJobs();
    expect(arrivedFor(userSub, from)).toHaveLength(0);
    await t.container.services.sockets.disconnect("push-user");
  });

  it("a transfer to a user pushes that user (in their device's language); preferences and quiet hours hold it back", async () => {
    let from = push.received.length;
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.userToken, body: { userId: a.admin.id } })).status).toBe(200);
    await drainJobs();
    expect(read(adminSub, from)).toEqual([{ title: "A ticket was transferred to you", body: "Conversation with Maria Cliente", url: `/tickets/${ticket.uuid}`, tag: `ticket-${ticket.uuid}` }]);

    const prefs = { waiting: true, message: true, transfer: false, chat: true, announcement: true, quietStart: null, quietEnd: null };
    expect((await t.call("PUT", "/push/preferences", { token: a.userToken, body: prefs })).body).toEqual(prefs);
    from = push.received.length;
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { userId: a.user.id } })).status).toBe(200);
    await drainJobs();
    expect(arrivedFor(userSub, from)).toHaveLength(0);

    // quiet the whole day but one minute: nothing arrives
    const allDay = { ...prefs, transfer: true, quietStart: "00:00", quietEnd: "23:59" };
    t.clock.set("2026-03-10T15:00:00Z");
    await t.call("PUT", "/push/preferences", { token: a.adminToken, body: allDay });
    from = push.received.length;
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.userToken, body: { userId: a.admin.id } })).status).toBe(200);
    await drainJobs();
    expect(arrivedFor(adminSub, from)).toHaveLength(0);
    t.clock.set(new Date());
  });

  it("the notifier other features call; 429/5xx are tried again through the jobs queue; 404/410 forget the subscription", async () => {
    const note = { title: "Sussurro", body: "Olhe o ticket 7", url: "/tickets/x", tag: "whisper-1" };
    push.answer(idOf(userSub), 503);
    let from = push.received.length;
    await t.container.push.notifyUsers(a.company.id, [a.user.id], note, { urgency: "high" });
    await drainJobs();
    expect(arrivedFor(userSub, from)).toHaveLength(1);
    const retry = t.jobs.pending.find((p) => p.job.type === "push.deliver");
    expect(retry?.delaySeconds).toBeGreaterThan(0);
    await drainJobs({ retries: true });
    expect(read(userSub, from)).toEqual([note, note]);

    push.answer(idOf(userSub), 410);
    from = push.received.length;
    await t.container.push.notifyUsers(a.company.id, [a.user.id], note);
    await drainJobs();
    expect(arrivedFor(userSub, from)).toHaveLength(1);
    from = push.received.length;
    await t.container.push.notifyUsers(a.company.id, [a.user.id], note);
    await drainJobs();
    expect(arrivedFor(userSub, from)).toHaveLength(0);
    // the subscription is gone: deleting it now finds nothing
    expect((await t.call("DELETE", "/push/subscriptions", { token: a.userToken, body: { endpoint: userSub.endpoint } })).body).toEqual({ error: "ERR_PUSH_SUBSCRIPTION_NOT_FOUND" });
  });

  it("an internal chat message pushes the chat's other members", async () => {
    userSub = await subscribe(a.userToken);
    const chat = await t.call("POST", "/chats", { token: a.adminToken, body: { title: "Equipe", users: [{ id: a.user.id }] } });
    expect(chat.status).toBe(200);
    const from = push.received.length;
    expect((await t.call("POST", `/chats/${chat.body.id}/messages`, { token: a.adminToken, body: { message: "Reunião às 15h" } })).status).toBe(200);
    await drainJobs();
    // previews are on for this company (set above)
    expect(read(userSub, from)).toEqual([{ title: "Chat interno: Admin Teste", body: "Reunião às 15h", url: `/chats/${chat.body.uuid}`, tag: `chat-${chat.body.uuid}` }]);
    expect(arrivedFor(adminSub, from)).toHaveLength(0);
  });

  it("an announcement published pushes every user of each company", async () => {
    const op = await createTenant(t);
    const opToken = await makeOperator(t, op);
    // the admin's quiet hours of the transfer case are over
    await t.call("PUT", "/push/preferences", { token: a.adminToken, body: { waiting: true, message: true, transfer: true, chat: true, announcement: true, quietStart: null, quietEnd: null } });
    const from = push.received.length;
    const made = await t.call("POST", "/announcements", { token: opToken, body: { title: "Manutenção sábado às 22h", text: "O sistema para." } });
    expect(made.status).toBe(200);
    await drainJobs();
    const expected = { title: "Novo informativo", body: "Manutenção sábado às 22h", url: "/announcements", tag: `announcement-${made.body.id}` };
    expect(read(userSub, from)).toEqual([expected]);
    expect(read(adminSub, from)).toEqual([{ ...expected, title: "New announcement" }]);
  });

  it("a supervisor's whisper pushes the ticket's attendant, never the customer's channel", async () => {
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { userId: a.user.id } })).status).toBe(200);
    await drainJobs();
    const from = push.received.length;
    const sent = t.commands.sent.length;
    expect((await t.call("POST", `/tickets/${ticket.id}/whispers`, { token: a.adminToken, body: { body: "Ofereça o frete grátis" } })).status).toBe(201);
    await drainJobs();
    // previews are on for this company (set above): the whisper's text is the body
    expect(read(userSub, from).filter((p) => p.tag.startsWith("whisper-"))).toEqual([
      { title: "Orientação de Admin Teste", body: "Ofereça o frete grátis", url: `/tickets/${ticket.uuid}`, tag: `whisper-${ticket.uuid}` },
    ]);
    expect(arrivedFor(adminSub, from)).toHaveLength(0);
    expect(t.commands.sent.length).toBe(sent);
  });
});
