import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, customerMessage, deliver, waId } from "../../../testing/inbox-fixtures";
import { noteUserWrite } from "../../users/user-writes";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createMessagesRepository } from "./messages.repository";
import { toMessageView } from "./message-view";

/**
 * GET /messages/{ticketId}, a conversation's first page (docs/adr/0059): the DynamoDB calls, items and round trips in
 * sequence it costs, counted through an observer on the app's client (as ticket-lists.int.test.ts counts the lists),
 * and the answer held byte for byte to what the request answered before (each message's quote and contact read by
 * id, the ticket as GET /tickets/{id} shows it), with every rule: who may see the ticket, paging, the read mark.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let seq = 0;

type Call = { name: string; depth: number; end: number | null; read: number; keys: string[] };
let recording: Call[] | null = null;

const itemsRead = (out: Record<string, unknown>) => {
  if (typeof out.ScannedCount === "number") return out.ScannedCount;
  if ("Item" in out) return out.Item ? 1 : 0;
  if (out.Responses && typeof out.Responses === "object") return Object.values(out.Responses as Record<string, unknown[]>).reduce((n, l) => n + l.length, 0);
  return 0;
};

beforeAll(async () => {
  // the card's queue, user, connection and tags read on every request (their one-second reuse off): the worst case
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
  t.container.db.doc.observe(({ operation, input: sent }) => {
    const calls = recording;
    if (!calls) return;
    const input = sent as Record<string, any>;
    // what was read or written, without ids: GetItem:TICKET, Query:CMSG (a conversation), Query:WS (the sockets),
    // PutItem:PAGES (a remembered page cursor), BatchGetItem with the sort keys it asked for
    const key = (/#PAGES#/.test(String(input.Key?.pk ?? input.Item?.pk)) ? "PAGES" : input.Key?.sk) ?? input.ExpressionAttributeValues?.[":pk"] ?? "";
    const what = String(key).replace(/^CO#\d+#?/, "").replace(/#?\d[\w.:-]*/g, "").slice(0, 16);
    const keys =
      operation === "BatchGetItem"
        ? Object.values(input.RequestItems as Record<string, { Keys: { pk: string; sk: string }[] }>).flatMap((r) => r.Keys.map((k) => (/#PAGES#/.test(k.pk) ? "PAGES" : String(k.sk).replace(/#.*/, ""))))
        : [];
    // a call's depth: one more than the deepest call already finished when it started (round trips in sequence)
    const call: Call = { name: what ? `${operation}:${what}` : operation, depth: 1 + Math.max(0, ...calls.filter((c) => c.end !== null).map((c) => c.depth)), end: null, read: 0, keys };
    calls.push(call);
    return {
      done: ({ output }) => {
        if (output) call.read = itemsRead(output as Record<string, unknown>);
        call.end = performance.now();
      },
    };
  });
});
afterAll(() => {
  recording = null;
});

const measure = async <T>(fn: () => Promise<T>) => {
  recording = [];
  const answer = await fn();
  const calls = recording;
  recording = null;
  return {
    answer,
    calls: calls.length,
    roundTripsInSequence: Math.max(0, ...calls.map((c) => c.depth)),
    /** each call's round trip in sequence */
    trips: calls.map((c) => ({ name: c.name, depth: c.depth })),
    itemsRead: calls.reduce((n, c) => n + c.read, 0),
    writes: calls.filter((c) => /Write|Put|Update|Delete/.test(c.name)).map((c) => c.name),
    names: calls.map((c) => `${c.depth} ${c.name}${c.keys.length ? `[${c.keys.join(",")}]` : ""}`).join(", "),
    batchKeys: calls.flatMap((c) => c.keys),
  };
};
/** `measure` with the caller's user item read by the request (not reused from an earlier one: the worst case). */
const measureWithAuth = async <T>(tenant: Tenant, userId: number, fn: () => Promise<T>) => {
  noteUserWrite(tenant.company.id, userId);
  const f = await measure(fn);
  expect(f.names, "the caller's read is counted").toMatch(/^1 (GetItem:USER|BatchGetItem\[[^\]]*USER)/);
  return f;
};

/** A customer writes `bodies` a second apart (the conversation's order is by time); `quotes[i]`: the index of the message body i quotes. */
const customerWrites = async (tenant: Tenant, number: string, bodies: string[], quotes: Record<number, number> = {}) => {
  const ids: string[] = [];
  for (const [i, body] of bodies.entries()) {
    t.clock.advance(1000);
    const id = waId();
    ids.push(id);
    const quoted = quotes[i] !== undefined ? { quotedId: ids[quotes[i]!]! } : {};
    await deliver(t, customerMessage(tenant, { number, id, body, pushName: `Conversa ${number.slice(-4)}`, extra: { timestamp: Math.floor(t.clock.now.getTime() / 1000), ...quoted } }));
  }
  return ids;
};
const newNumber = () => `55119${String(70000000 + ++seq * 13).padStart(8, "0")}`;
const ticketOf = async (tenant: Tenant, number: string) => (await adminTickets(t, tenant)).find((x) => x.contact.number === number)!;

/**
 * The page as GET /messages answered before ADR 0059, from the repositories: the conversation newest first, page
 * `pageNumber` of 20 shown oldest first, each message with its quote and its contact read by id.
 */
const reference = async (tenant: Tenant, ticketId: number, pageNumber: number) => {
  const messages = createMessagesRepository(t.container.db);
  const ticket = await t.call("GET", `/tickets/${ticketId}`, { token: tenant.adminToken });
  const all = (await messages.pageByContact(tenant.company.id, ticket.body.contactId, 1000)).items;
  const page = all.slice((pageNumber - 1) * 20, pageNumber * 20).reverse();
  const views = [];
  for (const m of page) {
    const quoted = m.quotedMsgId ? await messages.findById(tenant.company.id, m.quotedMsgId) : null;
    const contact = await t.call("GET", `/contacts/${m.contactId}`, { token: tenant.adminToken });
    views.push(toMessageView(m, quoted, contact.status === 200 ? contact.body : null));
  }
  return { messages: views, hasMore: all.length > pageNumber * 20 };
};
/** The answer, byte for byte: the messages as `reference` shows them and the ticket as GET /tickets/{id} shows it now. */
const expectAsBefore = async (tenant: Tenant, token: string, ticketId: number, pageNumber: number, body: unknown) => {
  const ref = await reference(tenant, ticketId, pageNumber);
  const ticket = await t.call("GET", `/tickets/${ticketId}`, { token });
  expect(ticket.status).toBe(200);
  expect(JSON.stringify(body)).toBe(JSON.stringify({ messages: ref.messages, ticket: ticket.body, count: ref.messages.length, hasMore: ref.hasMore }));
};

describe("a conversation's first page", () => {
  it("admin, unread, a quote of an older page: at most 4 round trips with the caller's read, 6 calls, the read mark its only write, no contact read", async () => {
    const number = newNumber();
    // 25 messages: the 24th quotes the first (not on page 1), the 25th the 21st (on page 1)
    const bodies = Array.from({ length: 25 }, (_, i) => `mensagem ${i}`);
    await customerWrites(a, number, bodies, { 23: 0, 24: 20 });
    const tk = await ticketOf(a, number);
    expect(tk).toMatchObject({ status: "pending", queueId: null });
    expect(tk.unreadMessages).toBeGreaterThan(0);
    const receipts = t.commands.sent.filter((c) => c.type === "read").length;

    const f = await measureWithAuth(a, a.admin.id, () => t.call("GET", `/messages/${tk.id}`, { token: a.adminToken }));
    expect(f.answer.status).toBe(200);
    // (before ADR 0059: 10 round trips and 10 calls with the names reused, 16 calls with them read, as here)
    // Two chains after the ticket: the page, then the older quote; the read mark, then its frame's socket list (after
    // the mark on purpose, docs/adr/0058). Counted as calls that had ended when each began, the quote's read is the
    // 4th when the socket list ended before it started (timing decides), 3rd otherwise.
    expect(f.roundTripsInSequence, f.names).toBeLessThanOrEqual(4);
    const trip = (name: string) => Math.max(...f.trips.filter((c) => c.name.startsWith(name)).map((c) => c.depth));
    expect(trip("Query:WS"), f.names).toBeGreaterThan(trip("TransactWriteItems"));
    expect(f.calls, f.names).toBeLessThanOrEqual(6);
    // one read of the conversation, no remembered cursor, no contact (the ticket carries its card), the read mark written once
    expect(f.names.match(/Query:CMSG/g), f.names).toHaveLength(1);
    expect(f.writes, f.names).toEqual(["TransactWriteItems"]);
    expect(f.batchKeys, f.names).not.toContain("CONTACT");
    expect(f.names, f.names).not.toMatch(/GetItem:CONTACT|PAGES/);
    // the quote of the older page read, the one on the page not
    expect(f.batchKeys.filter((k) => k === "MSG"), f.names).toHaveLength(1);

    const body = f.answer.body;
    expect(body.ticket.unreadMessages).toBe(0);
    expect(body.messages.map((m: { body: string }) => m.body)).toEqual(bodies.slice(5));
    expect(body.messages.at(-2).quotedMsg).toEqual({ id: expect.any(String), body: "mensagem 0", fromMe: false, mediaType: "chat" });
    expect(body.messages.at(-1).quotedMsg).toMatchObject({ body: "mensagem 20" });
    // the receipt for the customer's last message went out once
    expect(t.commands.sent.filter((c) => c.type === "read")).toHaveLength(receipts + 1);
    await expectAsBefore(a, a.adminToken, tk.id, 1, body);
  });

  it("admin, read, quotes on the page only (the bench's request): 2 round trips with the caller's read, 3 calls", async () => {
    const number = newNumber();
    await customerWrites(a, number, ["bom dia", "queria saber do pedido", "é o 4471"], { 2: 1 });
    const tk = await ticketOf(a, number);
    await t.call("GET", `/messages/${tk.id}`, { token: a.adminToken });
    const f = await measureWithAuth(a, a.admin.id, () => t.call("GET", `/messages/${tk.id}`, { token: a.adminToken }));
    // (before ADR 0059: 7 round trips, 7 calls with the names reused — the caller, the ticket, the page, its cursor, the contact, the quotes, the contacts)
    expect(f.roundTripsInSequence, f.names).toBeLessThanOrEqual(2);
    expect(f.calls, f.names).toBeLessThanOrEqual(3);
    expect(f.writes, f.names).toEqual([]);
    // the ticket and the caller in one batch read
    expect(f.names, f.names).toMatch(/^1 BatchGetItem\[(TICKET,USER|USER,TICKET)\]/);
    await expectAsBefore(a, a.adminToken, tk.id, 1, f.answer.body);

    // the caller's item reused (within the second): the ticket alone, then the page beside the names
    const reused = await measure(() => t.call("GET", `/messages/${tk.id}`, { token: a.adminToken }));
    expect(reused.roundTripsInSequence, reused.names).toBe(2);
    expect(reused.calls, reused.names).toBeLessThanOrEqual(3);
  });

  it("attendant, an open ticket of their queue with unread messages: at most 4 round trips, the answer as before", async () => {
    const number = newNumber();
    await customerWrites(a, number, ["oi", "1"]);
    const tk = await ticketOf(a, number);
    expect(tk.queueId).toBe(a.queues[0]!.id);
    expect((await t.call("PUT", `/tickets/${tk.id}`, { token: a.userToken, body: { status: "open" } })).status).toBe(200);
    // the attendant answers, edits, deletes, sends a file; the customer reacts... and writes again (unread)
    const sent = await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "Olá! Como posso ajudar?" } });
    await t.call("POST", `/messages/edit/${sent.body.id}`, { token: a.userToken, body: { body: "Olá! Em que posso ajudar?" } });
    const gone = await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "mensagem errada" } });
    await t.call("DELETE", `/messages/${gone.body.id}`, { token: a.userToken });
    const form = new FormData();
    form.append("medias", new File([new TextEncoder().encode("%PDF-1.4\n")], "boleto.pdf", { type: "application/pdf" }));
    form.append("body", "segue o boleto");
    expect((await t.app.request(`/api/messages/${tk.id}`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.userToken}` } })).status).toBe(201);
    const [asked] = await customerWrites(a, number, ["obrigado!", "e o prazo?"], {});
    await t.call("POST", `/messages/${asked}/reactions`, { token: a.userToken, body: { type: "👍" } });
    // the customer quotes the deleted message (its quote shows no text)
    await customerWrites(a, number, ["isso aqui?"]);
    const quoting = await createMessagesRepository(t.container.db).pageByContact(a.company.id, tk.contact.id, 1);
    await createMessagesRepository(t.container.db).update(a.company.id, quoting.items[0]!.id, { quotedMsgId: gone.body.id });
    const before = await t.call("GET", `/tickets/${tk.id}`, { token: a.userToken });
    expect(before.body.unreadMessages).toBeGreaterThan(0);

    const f = await measureWithAuth(a, a.user.id, () => t.call("GET", `/messages/${tk.id}`, { token: a.userToken }));
    expect(f.answer.status).toBe(200);
    // the caller and the ticket; the page and the names; the read mark; then its frame's socket list, after the mark
    // on purpose (docs/adr/0058: a socket opening meanwhile is in the list or re-reads the ticket after the mark)
    expect(f.roundTripsInSequence, f.names).toBeLessThanOrEqual(4);
    const trip = (name: string) => Math.max(...f.trips.filter((c) => c.name.startsWith(name)).map((c) => c.depth));
    expect(trip("Query:WS"), f.names).toBeGreaterThan(trip("TransactWriteItems"));
    expect(f.calls, f.names).toBeLessThanOrEqual(6);
    expect(f.writes, f.names).toEqual(["TransactWriteItems"]);
    expect(f.batchKeys, f.names).not.toContain("CONTACT");
    const body = f.answer.body;
    expect(body.ticket).toMatchObject({ unreadMessages: 0, status: "open", userId: a.user.id, queue: { id: a.queues[0]!.id } });
    const byBody = (text: string) => body.messages.find((m: { body: string }) => m.body === text);
    expect(byBody("Olá! Em que posso ajudar?")).toMatchObject({ isEdited: true, fromMe: true });
    expect(byBody("mensagem errada")).toMatchObject({ isDeleted: true });
    expect(byBody("segue o boleto").mediaUrl).toMatch(/^\/api\/media\//);
    expect(byBody("obrigado!").reactions).toEqual([{ emoji: "👍", fromMe: true, senderJid: "me" }]);
    expect(byBody("isso aqui?").quotedMsg).toEqual({ id: gone.body.id, body: "", fromMe: true, mediaType: "chat" });
    await expectAsBefore(a, a.userToken, tk.id, 1, body);
  });

  it("a ticket written before the cards (no copy): its contact is read in the same batch read as the names", async () => {
    const number = newNumber();
    await customerWrites(a, number, ["sem cartão"]);
    const tk = await ticketOf(a, number);
    // the ticket's item as an old one: its copy removed
    const db = t.container.db;
    const key = { pk: `CO#${a.company.id}`, sk: `TICKET#${String(tk.id).padStart(10, "0")}` };
    const out = await db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: key, UpdateExpression: "REMOVE contactCard", ConditionExpression: "attribute_exists(contactCard)", ReturnValues: "ALL_NEW" }));
    expect(out.Attributes?.contactCard).toBeUndefined();
    await t.call("GET", `/messages/${tk.id}`, { token: a.adminToken });
    const f = await measure(() => t.call("GET", `/messages/${tk.id}`, { token: a.adminToken }));
    expect(f.roundTripsInSequence, f.names).toBe(2);
    expect(f.batchKeys.filter((k) => k === "CONTACT"), f.names).toHaveLength(1);
    expect(f.answer.body.ticket.contact).toMatchObject({ number });
    await expectAsBefore(a, a.adminToken, tk.id, 1, f.answer.body);
  });
});

describe("the rules kept", () => {
  it("pages the whole conversation (every cycle) newest first by pageNumber; pages 1 and 2 remember no cursor, page 3 reads the one page 2 left", async () => {
    const number = newNumber();
    const first = Array.from({ length: 6 }, (_, i) => `primeiro ciclo ${i}`);
    await customerWrites(a, number, first);
    const old = await ticketOf(a, number);
    expect((await t.call("PUT", `/tickets/${old.id}`, { token: a.adminToken, body: { status: "closed" } })).status).toBe(200);
    const second = Array.from({ length: 40 }, (_, i) => `segundo ciclo ${i}`);
    await customerWrites(a, number, second);
    const tk = (await adminTickets(t, a, "showAll=true&status=pending")).find((x) => x.contact.number === number)!;
    expect(tk.id).not.toBe(old.id);

    const pages = [];
    for (let n = 1; n === 1 || pages.at(-1)!.answer.body.hasMore; n++) {
      const f = await measure(() => t.call("GET", `/messages/${tk.id}?pageNumber=${n}`, { token: a.adminToken }));
      expect(f.answer.status).toBe(200);
      // hasMore as before too
      await expectAsBefore(a, a.adminToken, tk.id, n, f.answer.body);
      pages.push(f);
    }
    expect(pages.length).toBeGreaterThanOrEqual(3);
    // (page 1 also marks the new ticket read)
    expect(pages[0]!.writes, pages[0]!.names).not.toContain("PutItem:PAGES");
    expect(pages[1]!.writes, pages[1]!.names).toEqual(["PutItem:PAGES"]);
    expect(pages[1]!.names.match(/Query:CMSG/g), pages[1]!.names).toHaveLength(1);
    expect(pages[2]!.names, pages[2]!.names).toMatch(/GetItem:PAGES|BatchGetItem\[[^\]]*PAGES/);
    // newest page first, each page oldest first: the pages reversed and joined are the conversation in order, once
    const inOrder = [...pages].reverse().flatMap((p) => p.answer.body.messages.map((m: { body: string }) => m.body)).filter((x: string) => /ciclo/.test(x));
    expect(inOrder).toEqual([...first, ...second]);
  });

  it("refuses an attendant a ticket of another queue and a queue-less one without allTicket (nothing read out, nothing cleared); allTicket shows it", async () => {
    const c = await createTenant(t);
    const [, suporte] = c.queues;
    const inSuporte = newNumber();
    await customerWrites(c, inSuporte, ["oi", "2", "preciso de ajuda"]);
    const other = await ticketOf(c, inSuporte);
    expect(other.queueId).toBe(suporte!.id);
    const queueless = newNumber();
    await customerWrites(c, queueless, ["oi"]);
    const pending = await ticketOf(c, queueless);
    expect(pending.queueId).toBeNull();
    for (const id of [other.id, pending.id]) {
      const f = await measure(() => t.call("GET", `/messages/${id}`, { token: c.userToken }));
      expect(f.answer).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
      expect(f.writes, f.names).toEqual([]);
      expect(f.names, f.names).not.toMatch(/CMSG/);
    }
    expect((await ticketOf(c, inSuporte)).unreadMessages).toBeGreaterThan(0);
    expect((await ticketOf(c, queueless)).unreadMessages).toBeGreaterThan(0);
    // the "pending without queue" rule: an attendant with allTicket sees it
    await t.container.repos.users.update((await t.container.repos.users.findById(c.company.id, c.user.id))!, { allTicket: "enabled" }, t.clock.now);
    noteUserWrite(c.company.id, c.user.id);
    const seen = await t.call("GET", `/messages/${pending.id}`, { token: c.userToken });
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body.ticket.unreadMessages).toBe(0);
  });

  it("keeps company B away from company A's conversation: not found, nothing read out or cleared", async () => {
    const number = newNumber();
    await customerWrites(a, number, ["segredo da empresa A"]);
    const tk = await ticketOf(a, number);
    const f = await measure(() => t.call("GET", `/messages/${tk.id}`, { token: b.adminToken }));
    expect(f.answer).toMatchObject({ status: 404, body: { error: "ERR_NO_TICKET_FOUND" } });
    expect(JSON.stringify(f.answer.body)).not.toContain("segredo");
    expect(f.writes, f.names).toEqual([]);
    expect(f.names, f.names).not.toMatch(/CMSG/);
    expect((await ticketOf(a, number)).unreadMessages).toBe(1);
  });

  it("answers 401 before anything else without a valid token (the ticket's read starts only after the token is verified)", async () => {
    const number = newNumber();
    await customerWrites(a, number, ["oi"]);
    const tk = await ticketOf(a, number);
    for (const token of [undefined, "not-a-token", `${a.adminToken.slice(0, -4)}AAAA`]) {
      const f = await measure(() => t.call("GET", `/messages/${tk.id}`, { token }));
      expect(f.answer).toMatchObject({ status: 401, body: { error: "ERR_SESSION_EXPIRED" } });
      expect(f.calls, f.names).toBe(0);
    }
    expect((await t.call("GET", "/messages/abc", {})).status).toBe(401);
    expect((await t.call("GET", "/messages/abc", { token: a.adminToken })).body).toEqual({ error: "ERR_NO_TICKET_FOUND" });
    expect((await t.call("GET", "/messages/999999", { token: a.adminToken })).body).toEqual({ error: "ERR_NO_TICKET_FOUND" });
    expect((await ticketOf(a, number)).unreadMessages).toBe(1);
  });
});
