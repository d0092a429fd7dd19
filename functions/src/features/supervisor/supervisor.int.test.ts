import { beforeAll, describe, expect, it } from "vitest";
import { strFromU8, unzipSync } from "fflate";
import type { SupervisorOverview } from "@atende/shared/contracts/http/supervisor";
import type { WhisperEventData } from "@atende/shared/contracts/http/messages";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { runTick } from "../../app/tick";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../testing/inbox-fixtures";

/**
 * Issue 34 (docs/adr/0101, 0102): the supervisor profile (created on Usuários; allowed and refused routes), the
 * cockpit's overview kept by the board, silent monitoring and whispers. Cross-tenant for every new route.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let supToken: string;
let supId: number;
const MIN = 60_000;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
  // created on Usuários by the admin, as a user first, then made supervisor (POST and PUT both take the profile)
  const created = await t.call("POST", "/users", { token: a.adminToken, body: { name: "Supervisora", email: `sup-${a.company.id}@teste.com`, password: a.password, profile: "user" } });
  expect(created.status).toBe(201);
  const put = await t.call("PUT", `/users/${created.body.id}`, { token: a.adminToken, body: { profile: "supervisor" } });
  expect(put.body.profile).toBe("supervisor");
  supId = created.body.id;
  supToken = (await a.login(`sup-${a.company.id}@teste.com`)).token;
  const direct = await t.call("POST", "/users", { token: a.adminToken, body: { name: "Outra Supervisora", email: `sup2-${a.company.id}@teste.com`, password: a.password, profile: "supervisor" } });
  expect(direct.body.profile).toBe("supervisor");
  await t.container.services.sockets.connect("sup-user", a.userToken);
});

/** A customer who chose queue `option` (1 Vendas, 2 Suporte): a pending ticket there. */
const customerInQueue = async (option = "1", tenant = a) => {
  const number = `55119${String(83000000 + ++n)}`;
  await deliver(t, customerMessage(tenant, { number, body: "oi" }));
  await deliver(t, customerMessage(tenant, { number, body: option }));
  const tk = (await adminTickets(t, tenant)).find((x) => x.contact.number === number)!;
  return { ...tk, number, jid: `${number}@s.whatsapp.net` };
};
const view = async (id: number, token = a.adminToken) => (await t.call("GET", `/tickets/${id}`, { token })).body as TicketView;
const overview = async (token = supToken) => (await t.call("GET", "/supervisor/overview", { token })).body as SupervisorOverview;

describe("the supervisor profile", () => {
  it("sees every queue's tickets and may accept, transfer and close any of them", async () => {
    // the supervisor has no queue: the ticket in Suporte (which the attendant does not serve either) is in their list
    const tk = await customerInQueue("2");
    const list = await t.call("GET", "/tickets?status=pending&showAll=true", { token: supToken });
    expect(list.body.tickets.map((x: { id: number }) => x.id)).toContain(tk.id);
    expect((await t.call("GET", `/tickets/${tk.id}`, { token: supToken })).status).toBe(200);
    const accepted = await t.call("PUT", `/tickets/${tk.id}`, { token: supToken, body: { status: "open", userId: supId } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: "open", userId: supId });
    const moved = await t.call("PUT", `/tickets/${tk.id}`, { token: supToken, body: { queueId: a.queues[0]!.id, userId: a.user.id, status: "open" } });
    expect(moved.body).toMatchObject({ userId: a.user.id, queueId: a.queues[0]!.id });
    const closed = await t.call("PUT", `/tickets/${tk.id}`, { token: supToken, body: { status: "closed" } });
    expect(closed.body.status).toBe("closed");
    // another company's ticket stays out of reach (ids are per company: one a does not have)
    expect((await t.call("GET", "/tickets/999999", { token: supToken })).status).toBe(404);
  });

  it.each([
    ["GET", "/dashboard?days=7", 200],
    ["GET", "/dashboard/ticketsUsers?days=7", 200],
    ["GET", "/ticket/reports?pageNumber=1", 200],
    ["GET", "/reports/csat", 200],
    ["GET", "/supervisor/overview", 200],
    ["POST", "/users", 403],
    ["PUT", "/users/ADMIN", 403],
    ["DELETE", "/users/ADMIN", 403],
    ["PUT", "/settings/userRating", 403],
    ["POST", "/queue", 403],
    ["PUT", "/queue/QUEUE", 403],
    ["DELETE", "/queue/QUEUE", 403],
    ["POST", "/whatsapp", 403],
    ["PUT", "/whatsapp/WAPP", 403],
    ["DELETE", "/whatsapp/WAPP", 403],
    ["POST", "/plans", 403],
    ["GET", "/invoices/all", 403],
    ["POST", "/subscription", 403],
    ["GET", "/audit-logs", 403],
  ] as const)("%s %s answers %i to a supervisor", async (method, path, status) => {
    const url = path.replace("ADMIN", String(a.admin.id)).replace("QUEUE", String(a.queues[0]!.id)).replace("WAPP", String(a.whatsapp.id));
    // valid bodies: the refusal is the permission's, not the validation's
    const bodies: Record<string, unknown> = {
      "/users": { name: "Nova Pessoa", email: `nova-${a.company.id}@teste.com`, password: "Senha1234", profile: "admin" },
      [`/users/${a.admin.id}`]: { name: "Outro Nome" },
      "/settings/userRating": { value: "enabled" },
    };
    const body = method === "GET" || method === "DELETE" ? undefined : (bodies[url] ?? { name: "x", color: "#123456" });
    const res = await t.call(method, url, { token: supToken, body });
    expect(res.status).toBe(status);
    if (status === 403) expect(res.body).toEqual({ error: "ERR_NO_PERMISSION" });
  });
});

describe("GET /supervisor/overview", () => {
  it("keeps each queue's waiting, longest wait, open tickets and SLA, and each attendant's load, without listing tickets", async () => {
    const put = await t.call("PUT", `/queue/${a.queues[1]!.id}`, { token: a.adminToken, body: { sla: { firstResponseMinutes: 10, resolutionMinutes: 60, nextResponseMinutes: "" } } });
    expect(put.status).toBe(200);
    const before = await overview();
    const suporte = () => before.queues.find((q) => q.id === a.queues[1]!.id)!;
    expect(suporte()).toMatchObject({ name: "Suporte", waiting: 0, longestWaitSeconds: 0, slaAtRisk: 0, slaBreached: 0 });

    const first = await customerInQueue("2");
    t.clock.advance(2 * MIN);
    const second = await customerInQueue("2");
    t.clock.advance(1 * MIN);
    let o = await overview();
    let q = o.queues.find((x) => x.id === a.queues[1]!.id)!;
    expect(q).toMatchObject({ waiting: 2, slaAtRisk: 0, slaBreached: 0 });
    expect(q.longestWaitSeconds).toBeGreaterThanOrEqual(180);
    expect(q.longestWaitSeconds).toBeLessThan(190);

    // 8.6 minutes for the first: amber (80 % of 10); then past 10 for it (breached) and 8.6 for the second
    t.clock.advance(5.6 * MIN);
    await runTick(t.container, t.clock.now);
    q = (await overview()).queues.find((x) => x.id === a.queues[1]!.id)!;
    expect(q).toMatchObject({ slaAtRisk: 1, slaBreached: 0 });
    t.clock.advance(2 * MIN);
    await runTick(t.container, t.clock.now);
    q = (await overview()).queues.find((x) => x.id === a.queues[1]!.id)!;
    expect(q).toMatchObject({ slaAtRisk: 1, slaBreached: 1 });

    // the attendant takes the second: it leaves the waiting, counts as open, and its reply is owed by them
    const accepted = await t.call("PUT", `/tickets/${second.id}`, { token: a.adminToken, body: { status: "open", userId: a.user.id } });
    expect(accepted.status).toBe(200);
    o = await overview();
    q = o.queues.find((x) => x.id === a.queues[1]!.id)!;
    expect(q).toMatchObject({ waiting: 1, openTickets: 1 });
    const agent = o.agents.find((x) => x.id === a.user.id)!;
    expect(agent).toMatchObject({ name: "Atendente Teste", openTickets: 1, capacity: 5 });
    // its first response is due 10 minutes after it was queued: 1.4 minutes from now
    expect(agent.oldestReplyDueSeconds).toBeGreaterThan(70);
    expect(agent.oldestReplyDueSeconds!).toBeLessThanOrEqual(90);
    // answering meets the first response: nothing owed, no longer at risk
    expect((await t.call("POST", `/messages/${second.id}`, { token: a.userToken, body: { body: "Olá!" } })).status).toBe(201);
    o = await overview();
    expect(o.agents.find((x) => x.id === a.user.id)!.oldestReplyDueSeconds).toBeNull();
    expect(o.queues.find((x) => x.id === a.queues[1]!.id)).toMatchObject({ slaAtRisk: 0, slaBreached: 1 });
    // closed, both leave the board
    await t.call("PUT", `/tickets/${second.id}`, { token: a.adminToken, body: { status: "closed" } });
    await t.call("PUT", `/tickets/${first.id}`, { token: a.adminToken, body: { status: "closed" } });
    q = (await overview()).queues.find((x) => x.id === a.queues[1]!.id)!;
    expect(q).toMatchObject({ waiting: 0, longestWaitSeconds: 0, openTickets: 0, slaAtRisk: 0, slaBreached: 0 });
  });

  it("answers admins and supervisors of the token's company only; an attendant is refused", async () => {
    expect((await t.call("GET", "/supervisor/overview", { token: a.userToken })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await t.call("GET", "/supervisor/overview")).status).toBe(401);
    await customerInQueue("1");
    const mine = await overview(a.adminToken);
    expect(mine.queues.map((q) => q.id).sort()).toEqual(a.queues.map((q) => q.id).sort());
    const theirs = await overview(b.adminToken);
    expect(theirs.queues.map((q) => q.id).sort()).toEqual(b.queues.map((q) => q.id).sort());
    expect(theirs.agents.map((x) => x.name)).not.toContain("Supervisora");
    expect(mine.agents.map((x) => x.name)).toContain("Supervisora");
  });
});

/** An open ticket of the attendant with one unread customer message. */
const attendantTicketWithUnread = async () => {
  const tk = await customerInQueue("1");
  await t.call("PUT", `/tickets/${tk.id}`, { token: a.userToken, body: { status: "open" } });
  await t.call("GET", `/messages/${tk.id}`, { token: a.userToken });
  await deliver(t, customerMessage(a, { number: tk.number, body: "ainda aí?" }));
  const v = await view(tk.id);
  expect(v).toMatchObject({ status: "open", userId: a.user.id, unreadMessages: 1 });
  return tk;
};

describe("silent monitoring", () => {
  it.each([
    ["supervisor", () => supToken],
    ["admin", () => a.adminToken],
  ])("a %s opening the attendant's conversation leaves unread, read mark and status as they were; the audit trail has the view", async (_who, token) => {
    const tk = await attendantTicketWithUnread();
    const commands = t.commands.sent.length;
    const frames = t.sender.frames.length;
    const res = await t.call("GET", `/messages/${tk.id}`, { token: token() });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { body: string }) => m.body)).toContain("ainda aí?");
    expect(await view(tk.id)).toMatchObject({ status: "open", userId: a.user.id, unreadMessages: 1 });
    // no read receipt to the customer, no ticket event to the attendant
    expect(t.commands.sent.slice(commands).filter((c) => c.type === "read")).toEqual([]);
    expect(t.sender.frames.slice(frames).filter((f) => f.connectionId === "sup-user")).toEqual([]);
    const audit = await t.call("GET", "/audit-logs?action=view", { token: a.adminToken });
    expect(audit.body.logs ?? audit.body.entries ?? audit.body).toEqual(expect.arrayContaining([expect.objectContaining({ action: "view", record: { kind: "ticket", id: String(tk.id) } })]));
    // the attendant's own opening still reads it
    await t.call("GET", `/messages/${tk.id}`, { token: a.userToken });
    expect((await view(tk.id)).unreadMessages).toBe(0);
  });
});

describe("POST /tickets/{id}/whispers", () => {
  it("adds an internal message the attendant is told of, which no channel ever carries and exports mark internal", async () => {
    const tk = await attendantTicketWithUnread();
    const before = await view(tk.id);
    const commands = t.commands.sent.length;
    const frames = t.sender.frames.length;
    const res = await t.call("POST", `/tickets/${tk.id}/whispers`, { token: supToken, body: { body: "Ofereça o plano anual" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: "Ofereça o plano anual", internal: true, ticketId: tk.id, userId: supId });
    // nothing to the customer: no command of any kind for the connection
    expect(t.commands.sent.slice(commands)).toEqual([]);
    // the ticket as the attendant sees it did not move
    const after = await view(tk.id);
    expect(after).toMatchObject({ status: before.status, userId: before.userId, unreadMessages: 1, lastMessage: before.lastMessage, updatedAt: before.updatedAt });
    // the attendant's socket got the whisper (their sound) and the message
    const mine = t.sender.frames.slice(frames).filter((f) => f.connectionId === "sup-user").map((f) => f.frame as { event: string; data: unknown });
    const whisper = mine.find((f) => f.event === "whisper")!.data as WhisperEventData;
    expect(whisper).toMatchObject({ action: "create", ticketId: tk.id, from: { id: supId, name: "Supervisora" }, message: { internal: true } });
    expect(mine.map((f) => f.event)).toContain("appMessage");
    // in the history, marked internal (the attendant's own opening: then the read mark goes out, as always)
    const list = await t.call("GET", `/messages/${tk.id}`, { token: a.userToken });
    expect(list.body.messages.find((m: { id: string }) => m.id === res.body.id)).toMatchObject({ internal: true });
    const reads = t.commands.sent.length;
    // no edit, delete, reaction or forward: those would reach the channel
    expect((await t.call("POST", `/messages/edit/${res.body.id}`, { token: supToken, body: { body: "x" } })).status).toBe(403);
    expect((await t.call("DELETE", `/messages/${res.body.id}`, { token: supToken })).status).toBe(403);
    expect((await t.call("POST", `/messages/${res.body.id}/reactions`, { token: a.userToken, body: { type: "👍" } })).status).toBe(403);
    expect((await t.call("POST", "/message/forward", { token: a.adminToken, body: { messageId: res.body.id, contactId: tk.contact.id, signMessage: false } })).status).toBe(404);
    expect(t.commands.sent.slice(reads)).toEqual([]);
    // the LGPD export carries it, marked internal
    const zip = await t.app.request(`/api/contacts/${tk.contact.id}/export`, { headers: { authorization: `Bearer ${a.adminToken}` } });
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const exported = JSON.parse(strFromU8(files["mensagens.json"]!)) as { id: string; internal?: boolean }[];
    expect(exported.find((m) => m.id === res.body.id)).toMatchObject({ internal: true });
    // the audit trail
    const audit = await t.call("GET", "/audit-logs?action=whisper", { token: a.adminToken });
    expect(JSON.stringify(audit.body)).toContain(`"id":"${tk.id}"`);
  });

  it("refuses an attendant, an empty or too long whisper, and another company's ticket", async () => {
    const tk = await attendantTicketWithUnread();
    expect((await t.call("POST", `/tickets/${tk.id}/whispers`, { token: a.userToken, body: { body: "oi" } })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await t.call("POST", `/tickets/${tk.id}/whispers`, { token: supToken, body: { body: "x".repeat(4097) } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", `/tickets/${tk.id}/whispers`, { token: supToken, body: { body: "   " } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", `/tickets/${tk.id}/whispers`, { token: supToken, body: { body: "x".repeat(4096) } })).status).toBe(201);
    // cross-tenant: ids are per company, so a's supervisor naming b's ticket id reaches a's own ticket of that id, if
    // any, never b's; an id a does not have is not found
    const other = await customerInQueue("1", b);
    await t.call("POST", `/tickets/${other.id}/whispers`, { token: supToken, body: { body: "para b?" } });
    const theirs = await t.call("GET", `/messages/${other.id}`, { token: b.adminToken });
    expect(theirs.body.messages.filter((m: { internal?: boolean }) => m.internal)).toEqual([]);
    expect((await t.call("POST", "/tickets/999999/whispers", { token: supToken, body: { body: "oi" } })).body).toEqual({ error: "ERR_NO_TICKET_FOUND" });
    expect((await t.call("POST", `/tickets/${tk.id}/whispers`, { body: { body: "oi" } })).status).toBe(401);
  });
});
