import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { customerMessage, deliver, waId } from "../../../testing/inbox-fixtures";
import { createMessagesRepository } from "./messages.repository";

/**
 * The DynamoDB work of an automatic answer (docs/adr/0061-automatic-answer-work.md): the queue menu re-sent for an
 * answer the bot did not understand (SERVER-RULES "Inbound message" 5), and its send's `command.result`. Counted
 * through an observer on the app's client, so a regression fails here (as tickets/ticket-lists.int.test.ts does).
 */
type Call = { name: string; depth: number; end: boolean; written: number };
let recording: Call[] | null = null;

const written = (name: string, input: Record<string, any>) => {
  if (name === "TransactWriteItems") return (input.TransactItems as unknown[]).length;
  if (name === "BatchWriteItem") return Object.values(input.RequestItems as Record<string, unknown[]>).reduce((n, l) => n + l.length, 0);
  return /^(Put|Update|Delete)Item$/.test(name) ? 1 : 0;
};
const observe = (app: TestApp) =>
  app.container.db.doc.observe(({ operation, input: sent }) => {
    const calls = recording;
    if (!calls) return;
    const input = sent as Record<string, any>;
    const key = input.Key?.sk ?? input.ExpressionAttributeValues?.[":pk"] ?? (input.RequestItems ? "batch" : "");
    const what = String(key).replace(/^CO#\d+#?/, "").replace(/#.*$/, "").replace(/\d.*$/, "");
    // round trips in sequence: one more than the deepest call already finished when this one started
    const call: Call = { name: what ? `${operation}:${what}` : operation, depth: 1 + Math.max(0, ...calls.filter((c) => c.end).map((c) => c.depth)), end: false, written: written(operation, input) };
    calls.push(call);
    return { done: () => void (call.end = true) };
  });
const measure = async (fn: () => Promise<unknown>) => {
  recording = [];
  await fn();
  const calls = recording;
  recording = null;
  const names = calls.map((c) => c.name);
  return {
    calls: calls.length,
    transactions: names.filter((n) => n === "TransactWriteItems").length,
    indexWrites: names.filter((n) => n === "BatchWriteItem:batch").length,
    itemsWritten: calls.reduce((n, c) => n + c.written, 0),
    roundTripsInSequence: Math.max(0, ...calls.map((c) => c.depth)),
    names: names.join(", "),
  };
};

let t: TestApp;
/** a second Lambda instance on the same table (its own memory of what the index holds) */
let other: TestApp;
let a: Tenant;

beforeAll(async () => {
  // the inbound directory read on every message (its reuse off): the figures are the worst case
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  // (the company's lookups reused for a moment, as in production: the command result reads no more of them)
  other = await createTestApp({ TABLE_NAME: t.container.db.tableName });
  observe(t);
  observe(other);
  a = await createTenant(t);
});

const menuTicket = async (number: string) => {
  const res = await t.call("GET", "/tickets?showAll=true&status=pending", { token: a.adminToken });
  return (res.body.tickets as { id: number; contact: { number: string } }[]).find((x) => x.contact.number === number)!.id;
};
const menuSends = (number: string) => t.commands.sent.flatMap((c) => (c.type === "send" && c.chatJid === `${number}@s.whatsapp.net` ? [c] : []));

describe("an answer the queue menu did not understand (docs/adr/0061)", () => {
  it("re-sends the menu in the customer message's unit of work with one transaction for the menu and the bot state, and leaves the repeat out of the search index", async () => {
    const number = "5511944440001";
    await deliver(t, customerMessage(a, { number, body: "oi", pushName: "Menu" }));
    const [menu] = menuSends(number);
    expect(menu?.body).toContain("*[ 1 ]* - Vendas");
    const invalid = await measure(() => deliver(t, customerMessage(a, { number, body: "banana" })));
    const resent = menuSends(number);
    expect(resent.map((c) => c.body)).toEqual([menu!.body, menu!.body]);
    console.log(JSON.stringify({ invalid }, null, 1));
    // the customer's message (its ticket and message: the inbound path's own transaction), then the menu message with
    // the bot state (menus sent) in one transaction; before: a third transaction for the bot state, with a
    // "bot" change record and the cycle's copy although nothing moved
    expect(invalid.transactions, invalid.names).toBe(2);
    // the customer's message is indexed; the menu repeated word for word is not (its first send is)
    expect(invalid.indexWrites, invalid.names).toBe(1);
    // before: 16 calls, 20 items written, 11 round trips in sequence (the company's lookups read fresh here)
    expect(invalid.calls, invalid.names).toBeLessThanOrEqual(14);
    expect(invalid.itemsWritten, invalid.names).toBeLessThanOrEqual(8);
    expect(invalid.roundTripsInSequence, invalid.names).toBeLessThanOrEqual(9);

    // as before: both menus stored and shown in the conversation, the menus sent counted on the ticket (the cap)
    const id = await menuTicket(number);
    const conversation = await t.call("GET", `/messages/${id}`, { token: a.adminToken });
    const bodies = (conversation.body.messages as { body: string; fromMe: boolean; isRepeat?: boolean }[]).filter((m) => m.fromMe);
    expect(bodies.map((m) => m.body)).toEqual([menu!.body, menu!.body]);
    expect(bodies.every((m) => m.isRepeat === undefined), "the flag is the index's, not the conversation's").toBe(true);
    const messages = createMessagesRepository(t.container.db);
    expect((await messages.findById(a.company.id, resent[0]!.commandId))?.isRepeat).toBeUndefined();
    expect((await messages.findById(a.company.id, resent[1]!.commandId))?.isRepeat).toBe(true);
    // search: the ticket is found by the menu's words through its first send; inside the conversation both are found
    const found = await t.call("GET", `/search?q=${encodeURIComponent("escolha fila")}`, { token: a.adminToken });
    const hits = (found.body.results as { ticketId: number; message?: { id: string } }[]).filter((h) => h.ticketId === id);
    expect(hits.map((h) => h.message?.id)).toEqual([resent[0]!.commandId]);
    const inTicket = await t.call("GET", `/search/tickets/${id}?q=escolha`, { token: a.adminToken });
    expect((inTicket.body.matches as { id: string }[]).map((m) => m.id).sort()).toEqual([resent[0]!.commandId, resent[1]!.commandId].sort());
    // the cap as before: the third menu is the last; the fourth invalid answer sends nothing
    await deliver(t, customerMessage(a, { number, body: "laranja" }));
    const third = menuSends(number);
    expect(third).toHaveLength(3);
    await deliver(t, customerMessage(a, { number, body: "uva" }));
    expect(menuSends(number)).toHaveLength(3);
  });

  it("answers the menu's command result with its ack and frame only, on any instance (the search index is not asked about an ack)", async () => {
    const number = "5511944440002";
    await deliver(t, customerMessage(a, { number, body: "oi", pushName: "Recibo" }));
    await deliver(t, customerMessage(a, { number, body: "banana" }));
    const [first, sent] = menuSends(number);
    const resultOf = (commandId: string) => ({ type: "command.result" as const, eventId: waId(), companyId: a.company.id, whatsappId: a.whatsapp.id, commandId, messageId: commandId, ok: true });
    // the other instance's lookups of the company are warm (its first event read them)
    await deliver(other, resultOf(first!.commandId));
    const result = resultOf(sent!.commandId);
    // another instance (no memory of the index's documents): before, it read the message's and the ticket's index
    // documents to learn that nothing changed (5 calls)
    const elsewhere = await measure(() => deliver(other, result));
    console.log(JSON.stringify({ elsewhere }, null, 1));
    expect(elsewhere.names).not.toMatch(/GetItem:DOC/);
    expect(elsewhere.calls, elsewhere.names).toBeLessThanOrEqual(3);
    expect(elsewhere.names).toMatch(/^UpdateItem:MSG/);
    // the ack moved forward as before; a late lower one moves nothing
    const messages = createMessagesRepository(t.container.db);
    expect((await messages.findById(a.company.id, sent!.commandId))?.ack).toBe(1);
    await deliver(other, result);
    expect((await messages.findById(a.company.id, sent!.commandId))?.ack).toBe(1);
  });
});
