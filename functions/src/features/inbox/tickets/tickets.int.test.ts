import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../../testing/inbox-fixtures";

let t: TestApp;
let a: Tenant;
let b: Tenant;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
});

/** A customer writes and picks queue `choice` (1 Vendas = the attendant's queue, 2 Suporte) from the bot menu. */
const customerInQueue = async (tenant: Tenant, choice: 1 | 2 | null, name = `Cliente ${seq + 1}`) => {
  seq++;
  const number = `55119${String(70000000 + seq * 7 + Math.floor(Math.random() * 5)).padStart(8, "0")}`;
  await deliver(t, customerMessage(tenant, { number, body: "oi", pushName: name }));
  if (choice) await deliver(t, customerMessage(tenant, { number, body: String(choice) }));
  const found = (await adminTickets(t, tenant)).find((x) => x.contact.number === number)!;
  return { ...found, number };
};
const get = (id: number, token: string) => t.call("GET", `/tickets/${id}`, { token });
const put = (id: number, token: string, body: unknown) => t.call("PUT", `/tickets/${id}`, { token, body });

describe("visibility", () => {
  it("lets an attendant see tickets of their queues only; a foreign queue answers ERR_NO_PERMISSION", async () => {
    const mine = await customerInQueue(a, 1);
    const foreign = await customerInQueue(a, 2);
    const queueless = await customerInQueue(a, null);
    expect(mine.queueId).toBe(a.queues[0]!.id);
    expect((await get(mine.id, a.userToken)).status).toBe(200);
    expect(await get(foreign.id, a.userToken)).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    const list = await t.call("GET", "/tickets?status=pending", { token: a.userToken });
    const ids = list.body.tickets.map((x: { id: number }) => x.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(foreign.id);
    expect(ids).not.toContain(queueless.id);
    // admins see everything
    const all = (await adminTickets(t, a)).map((x) => x.id);
    expect(all).toEqual(expect.arrayContaining([mine.id, foreign.id, queueless.id]));
  });

  it("shows queue-less tickets to attendants with allTicket enabled", async () => {
    const c = await createTenant(t);
    await t.container.repos.users.create(c.company.id, { ...c.user, email: `all-${c.user.email}`, allTicket: "enabled" }, t.clock.now);
    const { token } = await c.login(`all-${c.user.email}`);
    const queueless = await customerInQueue(c, null);
    expect((await get(queueless.id, token)).status).toBe(200);
    expect((await get(queueless.id, c.userToken)).status).toBe(403);
  });

  it("lets admins filter by user", async () => {
    const mine = await customerInQueue(a, 1);
    await put(mine.id, a.userToken, { status: "open" });
    const res = await t.call("GET", `/tickets?users=${JSON.stringify([a.user.id])}&status=open`, { token: a.adminToken });
    expect(res.body.tickets.every((x: { userId: number }) => x.userId === a.user.id)).toBe(true);
    expect(res.body.tickets.map((x: { id: number }) => x.id)).toContain(mine.id);
  });
});

describe("ticket rules", () => {
  it("accepts, resolves, refuses messages while closed, reopens keeping the queue, returns", async () => {
    const tk = await customerInQueue(a, 1);
    const accepted = await put(tk.id, a.userToken, { status: "open" });
    expect(accepted.body).toMatchObject({ status: "open", userId: a.user.id, queueId: a.queues[0]!.id });
    const closed = await put(tk.id, a.userToken, { status: "closed" });
    expect(closed.body.status).toBe("closed");
    expect(await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "oi" } })).toMatchObject({ status: 409, body: { error: "ERR_TICKET_CLOSED" } });
    const reopened = await put(tk.id, a.adminToken, { status: "open" });
    expect(reopened.body).toMatchObject({ status: "open", userId: a.admin.id, queueId: a.queues[0]!.id });
    expect((await t.call("POST", `/messages/${tk.id}`, { token: a.adminToken, body: { body: "voltei" } })).status).toBe(201);
    const returned = await put(tk.id, a.adminToken, { status: "pending", userId: null });
    expect(returned.body).toMatchObject({ status: "pending", userId: null });
  });

  it("records every change with who and when, and the attention cycle times", async () => {
    const tk = await customerInQueue(a, 1);
    await put(tk.id, a.userToken, { status: "open" });
    await put(tk.id, a.userToken, { status: "closed" });
    const changes = await t.container.services.tickets.listChanges(a.company.id, tk.id);
    expect(changes.map((c) => c.action)).toEqual(expect.arrayContaining(["create", "accept", "resolve"]));
    expect(changes.find((c) => c.action === "accept")).toMatchObject({ byUserId: a.user.id, from: { status: "pending" }, to: { status: "open", userId: a.user.id } });
    const from = new Date(t.clock.now.getTime() - 3600_000).toISOString();
    const to = new Date(t.clock.now.getTime() + 3600_000).toISOString();
    const cycle = (await t.container.services.tickets.listCyclesBetween(a.company.id, from, to)).find((c) => c.ticketId === tk.id);
    expect(cycle).toMatchObject({ userId: a.user.id, queueId: a.queues[0]!.id, status: "closed" });
    expect(cycle!.acceptedAt).toBeTruthy();
    expect(cycle!.finishedAt).toBeTruthy();
  });

  it("transfers without a user to pending with no owner, and with a user to that owner", async () => {
    const tk = await customerInQueue(a, 1);
    await put(tk.id, a.userToken, { status: "open" });
    const toQueue = await put(tk.id, a.userToken, { queueId: a.queues[1]!.id, userId: null });
    expect(toQueue.body).toMatchObject({ status: "pending", userId: null, queueId: a.queues[1]!.id });
    const toUser = await put(tk.id, a.adminToken, { queueId: a.queues[0]!.id, userId: a.user.id, status: "open" });
    expect(toUser.body).toMatchObject({ status: "open", userId: a.user.id, queueId: a.queues[0]!.id });
  });

  it("deletes a ticket for admins only", async () => {
    const tk = await customerInQueue(a, 1);
    expect(await t.call("DELETE", `/tickets/${tk.id}`, { token: a.userToken })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect((await t.call("DELETE", `/tickets/${tk.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await get(tk.id, a.adminToken)).body.error).toBe("ERR_NO_TICKET_FOUND");
    // the contact may open a new ticket afterwards
    await deliver(t, customerMessage(a, { number: tk.number, body: "de novo" }));
    expect((await adminTickets(t, a)).filter((x) => x.contact.number === tk.number)).toHaveLength(1);
  });

  it("creates a ticket from the dialog as open, and answers ERR_OTHER_OPEN_TICKET with the existing ticket", async () => {
    const contact = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Dialogo", number: "5511933330001" } });
    const body = { contactId: contact.body.id, queueId: a.queues[0]!.id, whatsappId: a.whatsapp.id, userId: a.user.id, status: "open" };
    const created = await t.call("POST", "/tickets", { token: a.userToken, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "open", userId: a.user.id, queueId: a.queues[0]!.id, contact: { name: "Dialogo" } });
    const again = await t.call("POST", "/tickets", { token: a.adminToken, body });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "ERR_OTHER_OPEN_TICKET", data: { id: created.body.id, user: { name: a.user.name } } });
    // an inbound message lands in that same ticket
    await deliver(t, customerMessage(a, { number: "5511933330001", body: "resposta" }));
    expect((await adminTickets(t, a)).filter((x) => x.contact.number === "5511933330001")).toHaveLength(1);
  });

  it("refuses two concurrent dialog creations for one contact: one wins", async () => {
    const contact = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Corrida", number: "5511933330002" } });
    const body = { contactId: contact.body.id, queueId: a.queues[0]!.id, whatsappId: a.whatsapp.id, status: "open" };
    const results = await Promise.all([1, 2, 3].map(() => t.call("POST", "/tickets", { token: a.adminToken, body })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
  });

  it("closes all pending tickets of a tab for admins", async () => {
    const c = await createTenant(t);
    await customerInQueue(c, 1);
    await customerInQueue(c, 2);
    expect((await t.call("POST", "/tickets/closeAll", { token: c.userToken, body: { status: "pending" } })).status).toBe(403);
    const res = await t.call("POST", "/tickets/closeAll", { token: c.adminToken, body: { status: "pending", selectedQueueIds: [] } });
    expect(res.status).toBe(200);
    expect(res.body.closed).toBe(2);
    expect((await adminTickets(t, c, "status=pending&showAll=true"))).toHaveLength(0);
  });

  it("sends the greeting on accept and tells the customer about a transfer when the settings say so", async () => {
    const c = await createTenant(t, { settings: { sendGreetingAccepted: "enabled", sendMsgTransfTicket: "enabled" } });
    const tk = await customerInQueue(c, 1, "Bruna Lima");
    const before = t.commands.sent.length;
    await put(tk.id, c.userToken, { status: "open" });
    const greeting = t.commands.sent.slice(before).find((x) => x.type === "send" && x.companyId === c.company.id);
    expect(greeting && "body" in greeting ? greeting.body : "").toContain(`meu nome é *${c.user.name}*`);
    const mark = t.commands.sent.length;
    await put(tk.id, c.userToken, { queueId: c.queues[1]!.id, userId: null });
    const notice = t.commands.sent.slice(mark).find((x) => x.type === "send" && x.companyId === c.company.id);
    expect(notice && "body" in notice ? notice.body : "").toContain("Suporte");
  });
});

describe("lists", () => {
  it("orders by last activity, pages by pageNumber, counts unread and clears it when read", async () => {
    const c = await createTenant(t, { queues: [{ name: "Unica", color: "#333333" }] });
    const made = [];
    for (let i = 0; i < 23; i++) {
      t.clock.advance(1000);
      made.push(await customerInQueue(c, null, `Pessoa ${i}`));
    }
    const page1 = await t.call("GET", "/tickets?status=pending&showAll=true&pageNumber=1", { token: c.adminToken });
    expect(page1.body.tickets).toHaveLength(20);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.count).toBe(23);
    expect(page1.body.tickets[0].id).toBe(made[22]!.id);
    const page2 = await t.call("GET", "/tickets?status=pending&showAll=true&pageNumber=2", { token: c.adminToken });
    expect(page2.body.tickets.map((x: { id: number }) => x.id)).toEqual([made[2]!.id, made[1]!.id, made[0]!.id]);
    expect(page2.body.hasMore).toBe(false);
    // a new message moves its ticket to the top
    t.clock.advance(1000);
    await deliver(t, customerMessage(c, { number: made[0]!.number, body: "estou aqui" }));
    const top = await t.call("GET", "/tickets?status=pending&showAll=true", { token: c.adminToken });
    expect(top.body.tickets[0]).toMatchObject({ id: made[0]!.id, unreadMessages: 2 });
    const unread = await t.call("GET", "/tickets?status=pending&showAll=true&withUnreadMessages=true", { token: c.adminToken });
    expect(unread.body.tickets.length).toBeGreaterThan(0);
    await t.call("GET", `/messages/${made[0]!.id}`, { token: c.adminToken });
    expect((await get(made[0]!.id, c.adminToken)).body.unreadMessages).toBe(0);
  });

  it("searches by contact name, number and message text", async () => {
    const tk = await customerInQueue(a, 1, "Zuleica Prado");
    await deliver(t, customerMessage(a, { number: tk.number, body: "meu pedido 4471 atrasou" }));
    const byName = await t.call("GET", "/tickets?searchParam=zuleica", { token: a.adminToken });
    expect(byName.body.tickets.map((x: { id: number }) => x.id)).toContain(tk.id);
    const byNumber = await t.call("GET", `/tickets?searchParam=${tk.number.slice(0, 9)}`, { token: a.adminToken });
    expect(byNumber.body.tickets.map((x: { id: number }) => x.id)).toContain(tk.id);
    const byText = await t.call("GET", "/tickets?searchParam=pedido 4471", { token: a.adminToken });
    expect(byText.body.tickets.map((x: { id: number }) => x.id)).toContain(tk.id);
    const nothing = await t.call("GET", "/tickets?searchParam=naoexiste", { token: a.adminToken });
    expect(nothing.body.tickets).toHaveLength(0);
  });

  it("tags tickets and filters by tag; kanban lists the caller's queues", async () => {
    const tk = await customerInQueue(a, 1);
    const tag = await t.call("POST", "/tags", { token: a.adminToken, body: { name: "VIP", color: "#ff0000" } });
    expect(tag.status).toBe(201);
    expect((await t.call("POST", "/tags", { token: a.adminToken, body: { name: "vip" } })).body.error).toBe("ERR_DUPLICATED_NAME");
    expect((await t.call("GET", "/tags/list", { token: a.userToken })).body.map((x: { name: string }) => x.name)).toContain("VIP");
    const synced = await t.call("POST", "/tags/sync", { token: a.userToken, body: { ticketId: tk.id, tags: [{ id: tag.body.id }] } });
    expect(synced.body.tags).toEqual([{ id: tag.body.id, name: "VIP", color: "#ff0000" }]);
    const filtered = await t.call("GET", `/tickets?showAll=true&tags=${JSON.stringify([tag.body.id])}`, { token: a.adminToken });
    expect(filtered.body.tickets.map((x: { id: number }) => x.id)).toEqual([tk.id]);
    const kanban = await t.call("GET", "/ticket/kanban", { token: a.userToken });
    expect(kanban.body.tickets.map((x: { id: number }) => x.id)).toContain(tk.id);
    expect((await t.call("DELETE", `/ticket-tags/${tk.id}`, { token: a.userToken })).body.tags).toEqual([]);
    expect((await t.call("PUT", `/ticket-tags/${tk.id}/${tag.body.id}`, { token: a.userToken })).body.tags).toHaveLength(1);
  });

  it("finds a ticket by uuid", async () => {
    const tk = await customerInQueue(a, 1);
    const full = await get(tk.id, a.adminToken);
    expect((await t.call("GET", `/tickets/u/${full.body.uuid}`, { token: a.userToken })).body.id).toBe(tk.id);
  });
});

describe("realtime", () => {
  it("sends ticket and message events only to sockets allowed to see them, never to another company", async () => {
    await t.container.services.sockets.connect("rt-a-user", a.userToken);
    await t.container.services.sockets.connect("rt-a-admin", a.adminToken);
    await t.container.services.sockets.connect("rt-b-admin", b.adminToken);
    const mark = t.sender.frames.length;
    const foreign = await customerInQueue(a, 2);
    const frames = t.sender.frames.slice(mark) as { connectionId: string; frame: { channel: string; event: string; data: { ticket?: { id: number } } } }[];
    const about = (conn: string) => frames.filter((f) => f.connectionId === conn && f.frame.data.ticket?.id === foreign.id);
    expect(about("rt-a-admin").some((f) => f.frame.event === "appMessage")).toBe(true);
    expect(about("rt-a-admin").some((f) => f.frame.event === "ticket")).toBe(true);
    expect(about("rt-a-user")).toHaveLength(0);
    expect(frames.filter((f) => f.connectionId === "rt-b-admin")).toHaveLength(0);

    const mine = await customerInQueue(a, 1);
    const later = t.sender.frames.slice(mark) as typeof frames;
    expect(later.some((f) => f.connectionId === "rt-a-user" && f.frame.channel === `company-${a.company.id}-ticket` && f.frame.data.ticket?.id === mine.id)).toBe(true);
  });
});

describe("cross-tenant and bad input", () => {
  it("gives company B nothing of company A's tickets and changes nothing", async () => {
    const tk = await customerInQueue(a, 1);
    const before = (await get(tk.id, a.adminToken)).body;
    const calls = [
      await get(tk.id, b.adminToken),
      await put(tk.id, b.adminToken, { status: "closed" }),
      await t.call("DELETE", `/tickets/${tk.id}`, { token: b.adminToken }),
      await t.call("GET", `/tickets/u/${before.uuid}`, { token: b.adminToken }),
      await t.call("GET", `/messages/${tk.id}`, { token: b.adminToken }),
      await t.call("POST", `/messages/${tk.id}`, { token: b.adminToken, body: { body: "intruso" } }),
      await t.call("POST", "/tags/sync", { token: b.adminToken, body: { ticketId: tk.id, tags: [] } }),
      await t.call("DELETE", `/ticket-tags/${tk.id}`, { token: b.adminToken }),
      await t.call("PUT", `/ticket-tags/${tk.id}/1`, { token: b.adminToken }),
      await t.call("POST", "/ticket-notes", { token: b.adminToken, body: { note: "espiando", ticketId: tk.id } }),
      await t.call("GET", `/ticket-notes/list?ticketId=${tk.id}`, { token: b.adminToken }),
      await t.call("POST", "/tickets", { token: b.adminToken, body: { contactId: before.contact.id, status: "open" } }),
      await t.call("GET", `/contacts/${before.contact.id}`, { token: b.adminToken }),
      await t.call("PUT", `/contacts/${before.contact.id}`, { token: b.adminToken, body: { name: "Hackeado" } }),
    ];
    for (const res of calls) expect([403, 404]).toContain(res.status);
    const closeAll = await t.call("POST", "/tickets/closeAll", { token: b.adminToken, body: { status: "pending", selectedQueueIds: [a.queues[0]!.id] } });
    expect(closeAll.body.closed ?? 0).toBe(0);
    const after = (await get(tk.id, a.adminToken)).body;
    expect(after).toMatchObject({ status: before.status, userId: before.userId, queueId: before.queueId, tags: before.tags, contact: { name: before.contact.name } });
    expect((await adminTickets(t, b)).some((x) => x.id === tk.id && x.contact.number === tk.number)).toBe(false);
  });

  it("lists only the caller's company's tags, kanban cards and contacts", async () => {
    const tk = await customerInQueue(a, 1);
    const tag = await t.call("POST", "/tags", { token: a.adminToken, body: { name: `Só A ${seq}` } });
    await t.call("POST", "/tags/sync", { token: a.adminToken, body: { ticketId: tk.id, tags: [{ id: tag.body.id }] } });
    expect((await t.call("GET", "/tags/list", { token: b.adminToken })).body.map((x: { id: number }) => x.id)).not.toContain(tag.body.id);
    expect((await t.call("GET", "/ticket/kanban", { token: b.adminToken })).body.tickets.map((x: { id: number }) => x.id)).not.toContain(tk.id);
    expect((await t.call("GET", "/contacts/list", { token: b.adminToken })).body.map((x: { number: string }) => x.number)).not.toContain(tk.number);
    expect((await t.call("PUT", `/ticket-tags/${tk.id}/${tag.body.id}`, { token: b.adminToken })).status).toBe(404);
  });

  it("refuses bad bodies with ERR_VALIDATION and stores nothing", async () => {
    const tk = await customerInQueue(a, 1);
    expect((await put(tk.id, a.adminToken, { status: "talvez" })).body.error).toBe("ERR_VALIDATION");
    expect((await put(tk.id, a.adminToken, {})).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/tickets", { token: a.adminToken, body: { contactId: "x" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/tickets", { token: a.adminToken, rawBody: "{nope", headers: { "content-type": "application/json" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/tickets/closeAll", { token: a.adminToken, body: { status: "closed" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/tickets?pageNumber=-1", { token: a.adminToken })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/tickets?queueIds=abc", { token: a.adminToken })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/tags", { token: a.adminToken, body: { name: "" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/tags/sync", { token: a.adminToken, body: { ticketId: tk.id, tags: "x" } })).body.error).toBe("ERR_VALIDATION");
    expect((await get(tk.id, a.adminToken)).body).toMatchObject({ status: "pending", tags: [] });
    expect((await t.call("GET", "/tickets/abc", { token: a.adminToken })).status).toBe(404);
    expect((await t.call("GET", "/tickets", {})).status).toBe(401);
  });
});
