import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { closedTicketRecord, customerMessage, deliver, waId } from "../../../testing/inbox-fixtures";
import { createTicketsRepository } from "./tickets.repository";

/**
 * The contact's card on its tickets' list items (docs/adr/0057): a list page reads no contact, so every change of a
 * contact (the contacts API, WhatsApp's picture and identity updates, an import, a delete, an LGPD erasure) must reach
 * every card of its tickets before its answer — on every tab, with every filter; items written before the copies
 * existed still render (their cards read the contact); realtime frames carry the contact as it is.
 */
let t: TestApp;
let c: Tenant;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  c = await createTenant(t);
});
afterAll(() => undefined);

type Card = { id: number; contact: { id: number; name: string; number: string; email: string; profilePicUrl: string } | null };
const list = async (token: string, query: string) => {
  const res = await t.call("GET", `/tickets?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.tickets as Card[];
};
const number = () => `55119${String(70000000 + ++seq * 13).padStart(8, "0")}`;
/** A customer's first message, then the menu choice: a pending ticket in the tenant's first queue. */
const pendingTicket = async (phone: string, name = `Cliente ${seq}`) => {
  await deliver(t, customerMessage(c, { number: phone, body: "oi", pushName: name }));
  await deliver(t, customerMessage(c, { number: phone, body: "1" }));
  const found = (await list(c.adminToken, "status=pending&showAll=true")).find((x) => x.contact?.number === phone);
  expect(found, phone).toBeTruthy();
  return found!;
};
const put = async (id: number, body: Record<string, unknown>, token = c.userToken) => {
  const res = await t.call("PUT", `/tickets/${id}`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const tag = async (ticketId: number, tagId: number) => {
  expect((await t.call("POST", "/tags/sync", { token: c.adminToken, body: { ticketId, tags: [{ id: tagId }] } })).status).toBe(200);
};

describe("a contact's change reaches every card of its tickets at once", () => {
  it("a rename, an edited number and e-mail and a WhatsApp picture show on the open, pending and closed tabs, with tag, queue and user filters", async () => {
    const vendas = c.queues[0]!.id;
    const vip = Number((await t.call("POST", "/tags", { token: c.adminToken, body: { name: "Cartões", color: "#123456" } })).body.id);
    // contact X: a closed ticket carrying the tag, then a pending one carrying it too
    const xPhone = number();
    const first = await pendingTicket(xPhone);
    await tag(first.id, vip);
    await put(first.id, { status: "open" });
    await put(first.id, { status: "closed" });
    const pending = await pendingTicket(xPhone);
    expect(pending.id).not.toBe(first.id);
    await tag(pending.id, vip);
    // contact Y: an open ticket of the attendant, tagged
    const yPhone = number();
    const open = await pendingTicket(yPhone);
    await put(open.id, { status: "open" });
    await tag(open.id, vip);
    const x = pending.contact!.id;
    const y = open.contact!.id;

    const tabs: [string, string, number][] = [
      [c.adminToken, "status=pending&showAll=true", pending.id],
      [c.adminToken, `status=pending&showAll=true&tags=[${vip}]`, pending.id],
      [c.adminToken, `status=pending&showAll=true&queueIds=[${vendas}]`, pending.id],
      [c.adminToken, "status=closed&showAll=true", first.id],
      [c.adminToken, `status=closed&showAll=true&tags=[${vip}]`, first.id],
      [c.adminToken, "showAll=true", first.id],
      [c.userToken, "status=pending", pending.id],
      [c.userToken, `status=pending&tags=[${vip}]`, pending.id],
      [c.userToken, "status=closed", first.id],
      [c.adminToken, "status=open&showAll=true", open.id],
      [c.adminToken, `status=open&showAll=true&tags=[${vip}]`, open.id],
      [c.adminToken, `status=open&showAll=true&users=[${c.user.id}]`, open.id],
      [c.userToken, "status=open", open.id],
      [c.userToken, `status=open&tags=[${vip}]`, open.id],
    ];
    const expectCards = async (want: Record<number, Partial<NonNullable<Card["contact"]>> | null>, when: string) => {
      for (const [token, q, id] of tabs) {
        const card = (await list(token, q)).find((x) => x.id === id);
        expect(card, `${when}: ${q} lists ticket ${id}`).toBeTruthy();
        const contactId = id === open.id ? y : x;
        const expected = want[contactId];
        if (expected === null) expect(card!.contact, `${when}: ${q}`).toBeNull();
        else expect(card!.contact, `${when}: ${q}`).toMatchObject({ id: contactId, ...expected });
        // the card is the ticket's own view
        const own = (await t.call("GET", `/tickets/${id}`, { token: c.adminToken })).body as Card;
        expect(card!.contact, `${when}: ${q} vs GET /tickets/${id}`).toEqual(own.contact);
      }
    };

    // the contacts API: name, e-mail and number (the answer returns only once every card shows them)
    const xNumber = number();
    expect((await t.call("PUT", `/contacts/${x}`, { token: c.adminToken, body: { name: "Joana Renomeada", email: "joana@exemplo.com.br", number: xNumber } })).status).toBe(200);
    expect((await t.call("PUT", `/contacts/${y}`, { token: c.userToken, body: { name: "Yuri Renomeado" } })).status).toBe(200);
    await expectCards({ [x]: { name: "Joana Renomeada", email: "joana@exemplo.com.br", number: xNumber }, [y]: { name: "Yuri Renomeado" } }, "after PUT /contacts");

    // WhatsApp's picture of the person (the session host's contact.picture event)
    const url = "https://pps.whatsapp.net/v/t61/foto-nova.jpg";
    await deliver(t, { type: "contact.picture", eventId: waId(), companyId: c.company.id, whatsappId: c.whatsapp.id, chatJid: `${yPhone}@s.whatsapp.net`, number: yPhone, profilePicUrl: url });
    await expectCards({ [x]: { name: "Joana Renomeada" }, [y]: { name: "Yuri Renomeado", profilePicUrl: url } }, "after contact.picture");

    // ticket writes after the change keep the new card (the copy travels with the ticket), and a write that read the
    // ticket before the change re-reads it (the change moved its version): accept, tag, transfer, close
    await put(pending.id, { status: "open" });
    await put(pending.id, { status: "closed" });
    const closedTabs: [string, string][] = [
      [c.adminToken, "status=closed&showAll=true"],
      [c.adminToken, `status=closed&showAll=true&tags=[${vip}]`],
    ];
    for (const [token, q] of closedTabs) expect((await list(token, q)).find((x) => x.id === pending.id)?.contact?.name, q).toBe("Joana Renomeada");
  });

  it("a write holding the ticket as read before the change loses its version and re-reads: the old card never comes back", async () => {
    const phone = number();
    const tk = await pendingTicket(phone);
    const repo = createTicketsRepository(t.container.db);
    const read = (await repo.findById(c.company.id, tk.id))!;
    expect(read.contactCard?.name).toBe(tk.contact!.name);
    expect((await t.call("PUT", `/contacts/${tk.contact!.id}`, { token: c.adminToken, body: { name: "Depois da Leitura" } })).status).toBe(200);
    const after = (await repo.findById(c.company.id, tk.id))!;
    expect(after.version).toBe(read.version + 1);
    // the ticket as read before the rename, written back: refused by its version condition
    await expect(repo.transact([repo.saveItem({ ...read, version: read.version + 1, unreadMessages: 9 }, read.version)])).rejects.toThrow();
    // an inbound message on that ticket goes through (re-read) and keeps the new card
    await deliver(t, customerMessage(c, { number: phone, body: "mais uma" }));
    const card = (await list(c.adminToken, "status=pending&showAll=true")).find((x) => x.id === tk.id);
    expect(card?.contact?.name).toBe("Depois da Leitura");
    expect((await repo.findById(c.company.id, tk.id))!.contactCard?.name).toBe("Depois da Leitura");
  });

  it("a deleted contact's closed tickets show no contact (their copy is null; the LGPD erasure nulls it too: lgpd.int.test.ts scans the table)", async () => {
    const phone = number();
    const tk = await pendingTicket(phone, "Apagada Silva");
    await put(tk.id, { status: "open" });
    await put(tk.id, { status: "closed" });
    expect((await list(c.adminToken, "status=closed&showAll=true")).find((x) => x.id === tk.id)?.contact?.name).toBe("Apagada Silva");
    expect((await t.call("DELETE", `/contacts/${tk.contact!.id}`, { token: c.adminToken })).status).toBe(200);
    expect((await list(c.adminToken, "status=closed&showAll=true")).find((x) => x.id === tk.id)?.contact).toBeNull();
    expect((await createTicketsRepository(t.container.db).findById(c.company.id, tk.id))!.contactCard).toBeNull();
  });
});

describe("a card too large to copy (long extra fields)", () => {
  it("is not copied: its tickets' cards read the contact, and a shorter card is copied again", async () => {
    const phone = number();
    const tk = await pendingTicket(phone, "Muitos Campos");
    const repo = createTicketsRepository(t.container.db);
    const extraInfo = Array.from({ length: 4 }, (_, i) => ({ name: `campo ${i}`, value: "x".repeat(900) }));
    expect((await t.call("PUT", `/contacts/${tk.contact!.id}`, { token: c.adminToken, body: { name: "Muitos Campos", extraInfo } })).status).toBe(200);
    expect((await repo.findById(c.company.id, tk.id))!.contactCard).toBeUndefined();
    const card = (await list(c.adminToken, "status=pending&showAll=true")).find((x) => x.id === tk.id) as Card & { contact: { extraInfo: unknown[] } };
    expect(card.contact.extraInfo).toEqual(extraInfo);
    // an inbound message does not copy it either, and the card stays right
    await deliver(t, customerMessage(c, { number: phone, body: "ainda aqui" }));
    expect((await repo.findById(c.company.id, tk.id))!.contactCard).toBeUndefined();
    expect((await t.call("PUT", `/contacts/${tk.contact!.id}`, { token: c.adminToken, body: { name: "Poucos Campos", extraInfo: [] } })).status).toBe(200);
    expect((await repo.findById(c.company.id, tk.id))!.contactCard).toMatchObject({ name: "Poucos Campos", extraInfo: [] });
    expect((await list(c.adminToken, "status=pending&showAll=true")).find((x) => x.id === tk.id)?.contact?.name).toBe("Poucos Campos");
  });
});

describe("items written before the cards' copies", () => {
  it("render with their contact read (and follow its changes); the next inbound message gives a live one its copy", async () => {
    const phone = number();
    const tk = await pendingTicket(phone, "Antiga Cliente");
    const contactId = tk.contact!.id;
    const repo = createTicketsRepository(t.container.db);
    // a closed ticket of the contact as written before session 9 (no contactCard), e.g. the benchmark's seed without copies
    const at = new Date(Date.now() - 3600_000).toISOString();
    const old = closedTicketRecord(c, {
      id: 900_000 + seq,
      contactId,
      at,
      lastMessage: "de antes",
      chatJid: `${phone}@s.whatsapp.net`,
      // tagged but without its tag copies (written around the repository): the bulk transaction of a contact change
      // loses its condition on the missing copy and redoes the ticket alone
      tagIds: [424_242],
    });
    await repo.transact(repo.createItems(old));
    // and the live ticket's item as an old one: its copy removed
    const live = (await repo.findById(c.company.id, tk.id))!;
    delete live.contactCard;
    await repo.transact([repo.saveItem({ ...live, version: live.version + 1 }, live.version)]);
    expect((await repo.findById(c.company.id, tk.id))!.contactCard).toBeUndefined();

    const closedCard = (await list(c.adminToken, "status=closed&showAll=true")).find((x) => x.id === old.id);
    expect(closedCard?.contact).toMatchObject({ id: contactId, name: "Antiga Cliente", number: phone });
    expect((await list(c.adminToken, "status=pending&showAll=true")).find((x) => x.id === tk.id)?.contact).toMatchObject({ id: contactId, name: "Antiga Cliente" });

    // a rename reaches the old items too (they get the copy)
    expect((await t.call("PUT", `/contacts/${contactId}`, { token: c.adminToken, body: { name: "Antiga Renomeada" } })).status).toBe(200);
    expect((await list(c.adminToken, "status=closed&showAll=true")).find((x) => x.id === old.id)?.contact?.name).toBe("Antiga Renomeada");
    expect((await repo.findById(c.company.id, old.id))!.contactCard?.name).toBe("Antiga Renomeada");

    // a live old item without any contact change: the next inbound message writes its copy
    delete live.contactCard;
    const current = (await repo.findById(c.company.id, tk.id))!;
    delete current.contactCard;
    await repo.transact([repo.saveItem({ ...current, version: current.version + 1 }, current.version)]);
    expect((await repo.findById(c.company.id, tk.id))!.contactCard).toBeUndefined();
    await deliver(t, customerMessage(c, { number: phone, body: "voltei" }));
    expect((await repo.findById(c.company.id, tk.id))!.contactCard).toMatchObject({ id: contactId, name: "Antiga Renomeada", number: phone });
  });
});

describe("realtime frames", () => {
  it("carry the contact as it is after a rename (message and ticket frames)", async () => {
    const phone = number();
    const tk = await pendingTicket(phone, "Antes do Frame");
    await t.container.services.sockets.connect("cards-admin", c.adminToken);
    expect((await t.call("PUT", `/contacts/${tk.contact!.id}`, { token: c.adminToken, body: { name: "Depois do Frame" } })).status).toBe(200);
    const mark = t.sender.frames.length;
    await deliver(t, customerMessage(c, { number: phone, body: "de novo" }));
    const frames = (t.sender.frames.slice(mark) as { connectionId: string; frame: { event: string; data: { ticket?: { id: number; contact: { name: string } | null }; contact?: { name: string } } } }[]).filter(
      (f) => f.connectionId === "cards-admin" && f.frame.data.ticket?.id === tk.id,
    );
    expect(frames.map((f) => f.frame.event)).toEqual(expect.arrayContaining(["appMessage", "ticket"]));
    for (const f of frames) expect(f.frame.data.ticket!.contact?.name, f.frame.event).toBe("Depois do Frame");
    expect(frames.find((f) => f.frame.event === "appMessage")!.frame.data.contact?.name).toBe("Depois do Frame");
  });
});
