import { beforeAll, describe, expect, it } from "vitest";
import { isErrorCode } from "@atende/shared/errors/error-codes";
import { EXTERNAL_API_MESSAGES_PER_MINUTE } from "@atende/shared/domain/external-api/external-message";
import { createTenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets } from "../../testing/inbox-fixtures";
import { AppError } from "../../platform/errors";
import { createTicketChanges } from "../inbox/tickets/ticket-changes";
import { createTicketsRepository } from "../inbox/tickets/tickets.repository";

/**
 * Issue 27 finding 5: parallel external-API sends to one number all write the same ticket (its last message, under
 * its version). They used to lose the ticket's optimistic retries and answer 500 ERR_INTERNAL, unlogged. Now they wait
 * their turn: each is sent, or answered 409/429 from the catalogue; none is lost or stored twice.
 */
let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
});

const parallelSends = async (count: number) => {
  const tenant = await createTenant(t);
  const number = `55219${String(80000000 + ++n)}`;
  const bodies = Array.from({ length: count }, (_, i) => `pedido ${i + 1}`);
  const answers = await Promise.all(
    bodies.map((body) => t.call("POST", "/messages/send", { headers: { authorization: `Bearer ${tenant.whatsapp.token}` }, body: { number, body } })),
  );
  const sent = bodies.filter((_, i) => answers[i]!.status === 200);
  const commands = t.commands.sent.filter((c) => c.type === "send" && c.chatJid === `${number}@s.whatsapp.net`).map((c) => (c as { body: string }).body);
  const tickets = (await adminTickets(t, tenant)).filter((x) => x.contact.number === number);
  // the ticket's whole history, page by page
  const stored: string[] = [];
  for (let page = 1; tickets.length === 1 && page < 20; page++) {
    const res = await t.call("GET", `/messages/${tickets[0]!.id}?pageNumber=${page}`, { token: tenant.adminToken });
    stored.push(...(res.body.messages as { body: string }[]).map((m) => m.body));
    if (!res.body.hasMore) break;
  }
  return { answers, sent, commands, tickets, stored, bodies };
};

const expectNoneLostOrTwice = (r: Awaited<ReturnType<typeof parallelSends>>) => {
  // never a 5xx; every refusal a catalogue code with its status
  for (const a of r.answers) {
    expect(a.status, JSON.stringify(a.body)).not.toBeGreaterThanOrEqual(500);
    if (a.status !== 200) {
      expect([409, 429]).toContain(a.status);
      expect(isErrorCode(a.body.error), JSON.stringify(a.body)).toBe(true);
    }
  }
  // one ticket; what was answered 200 was sent exactly once, and nothing else was
  expect(r.tickets).toHaveLength(1);
  expect([...r.commands].sort()).toEqual([...r.sent].sort());
  expect([...r.stored].sort()).toEqual([...r.sent].sort());
};

describe("parallel external-API sends to one number", () => {
  it("20 at once: every one is sent, once, into the one ticket", { timeout: 120_000 }, async () => {
    const r = await parallelSends(20);
    expectNoneLostOrTwice(r);
    expect(r.sent).toHaveLength(20);
  });

  it("100 at once: none is a 5xx; the ones over the token's minute are 429; none lost or sent twice", { timeout: 240_000 }, async () => {
    const r = await parallelSends(100);
    expectNoneLostOrTwice(r);
    expect(r.sent.length).toBeGreaterThan(0);
    expect(r.answers.filter((a) => a.status === 429).every((a) => a.body.error === "ERR_TOO_MANY_ATTEMPTS")).toBe(true);
    expect(r.sent.length).toBeLessThanOrEqual(EXTERNAL_API_MESSAGES_PER_MINUTE);
  });

  it("from many instances at once (no line in one process, as on Lambda): the ticket's writers take turns; each sent once", { timeout: 240_000 }, async () => {
    const tenant = await createTenant(t);
    const number = `55219${String(80000000 + ++n)}`;
    const inbox = t.container.services.inbox;
    const contact = await inbox.upsertFromWhatsapp(tenant.company.id, tenant.whatsapp.id, { jid: `${number}@s.whatsapp.net`, number });
    const bodies = Array.from({ length: 20 }, (_, i) => `instância ${i + 1}`);
    const out = await Promise.allSettled(
      bodies.map((body) => inbox.sendToContact({ companyId: tenant.company.id, contactId: contact.id, whatsappId: tenant.whatsapp.id, body, userId: null })),
    );
    expect(out.filter((o) => o.status === "rejected").map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
    const commands = t.commands.sent.filter((c) => c.type === "send" && c.chatJid === `${number}@s.whatsapp.net`).map((c) => (c as { body: string }).body);
    expect(commands.sort()).toEqual([...bodies].sort());
    expect((await adminTickets(t, tenant)).filter((x) => x.contact.number === number)).toHaveLength(1);
  });

  it("a writer whose turn does not come in time answers 409 ERR_TICKET_BUSY, having written nothing", async () => {
    const tenant = await createTenant(t);
    const number = `55219${String(80000000 + ++n)}`;
    const inbox = t.container.services.inbox;
    const contact = await inbox.upsertFromWhatsapp(tenant.company.id, tenant.whatsapp.id, { jid: `${number}@s.whatsapp.net`, number });
    const { ticket } = await inbox.sendToContact({ companyId: tenant.company.id, contactId: contact.id, whatsappId: tenant.whatsapp.id, body: "primeira", userId: null });
    const tickets = createTicketsRepository(t.container.db);
    const before = (await tickets.findById(tenant.company.id, ticket.id))!;
    // no patience at all: a writer that loses once gives up
    const impatient = createTicketChanges({ db: t.container.db, tickets, busyWaitMs: 0 });
    const out = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => impatient.mutate(tenant.company.id, ticket.id, () => ({ patch: { lastMessage: `m${i}` } }), { byUserId: null, now: new Date() })),
    );
    const busy = out.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(busy.length).toBeGreaterThan(0);
    for (const b of busy) expect(b.reason).toMatchObject({ code: "ERR_TICKET_BUSY", status: 409 });
    expect(busy.every((b) => b.reason instanceof AppError)).toBe(true);
    const after = await tickets.findById(tenant.company.id, ticket.id);
    expect(after!.version).toBe(before.version + (out.length - busy.length));
  });
});
