import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../../testing/inbox-fixtures";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
});

describe("contacts", () => {
  it("creates a contact and answers the existing one for the same number, ninth digit or not", async () => {
    const created = await t.call("POST", "/contacts", { token: a.userToken, body: { name: "João Pereira", number: "5511977776666", email: "joao@ex.com", extraInfo: [{ name: "CPF", value: "123" }] } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: "João Pereira", number: "5511977776666", extraInfo: [{ name: "CPF", value: "123" }] });
    const again = await t.call("POST", "/contacts", { token: a.userToken, body: { name: "Outro Nome", number: "+55 (11) 7777-6666" } });
    expect(again.body).toMatchObject({ alreadyExists: true, existingContact: { id: created.body.id } });
    expect((await t.call("GET", `/contacts/${created.body.id}`, { token: a.userToken })).body.name).toBe("João Pereira");
  });

  it("validates the form with the spec's rules and stores nothing on bad input", async () => {
    const short = await t.call("POST", "/contacts", { token: a.userToken, body: { name: "J", number: "5511900000001" } });
    expect(short.body.error).toBe("ERR_VALIDATION");
    expect(short.body.issues[0].message).toBe("Too Short!");
    expect((await t.call("POST", "/contacts", { token: a.userToken, body: { name: "Nome Ok", number: "123" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/contacts", { token: a.userToken, body: { name: "Nome Ok", number: "5511900000001", email: "nope" } })).body.error).toBe("ERR_VALIDATION");
    const list = await t.call("GET", "/contacts?searchParam=5511900000001", { token: a.userToken });
    expect(list.body.contacts).toHaveLength(0);
  });

  it("lists by name with paging and count, and searches names (accents ignored) and numbers by prefix", async () => {
    const c = await createTenant(t);
    for (let i = 0; i < 22; i++) {
      await t.call("POST", "/contacts", { token: c.adminToken, body: { name: `Pessoa ${String(i).padStart(2, "0")}`, number: `55119800000${String(i).padStart(2, "0")}` } });
    }
    await t.call("POST", "/contacts", { token: c.adminToken, body: { name: "Ângela Moura", number: "5521999990000" } });
    const p1 = await t.call("GET", "/contacts?pageNumber=1", { token: c.adminToken });
    expect(p1.body).toMatchObject({ count: 23, hasMore: true });
    expect(p1.body.contacts[0].name).toBe("Ângela Moura");
    const p2 = await t.call("GET", "/contacts?pageNumber=2", { token: c.adminToken });
    expect(p2.body.contacts).toHaveLength(3);
    expect(p2.body.hasMore).toBe(false);
    expect((await t.call("GET", "/contacts?searchParam=angela", { token: c.adminToken })).body.contacts.map((x: { name: string }) => x.name)).toEqual(["Ângela Moura"]);
    expect((await t.call("GET", "/contacts?searchParam=552199", { token: c.adminToken })).body.contacts).toHaveLength(1);
    expect((await t.call("GET", "/contacts/list", { token: c.adminToken })).body).toHaveLength(23);
  });

  it("edits a contact, refusing a number that belongs to another contact, and tells the browsers", async () => {
    const one = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Primeiro", number: "5511966660001" } });
    await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Segundo", number: "5511966660002" } });
    await t.container.services.sockets.connect("contacts-sock", a.userToken);
    const mark = t.sender.frames.length;
    const edited = await t.call("PUT", `/contacts/${one.body.id}`, { token: a.adminToken, body: { name: "Primeiro Editado" } });
    expect(edited.body.name).toBe("Primeiro Editado");
    expect(t.sender.frames.slice(mark).some((f) => f.connectionId === "contacts-sock" && (f.frame as { channel: string }).channel === `company-${a.company.id}-contact`)).toBe(true);
    const dup = await t.call("PUT", `/contacts/${one.body.id}`, { token: a.adminToken, body: { number: "5511966660002" } });
    expect(dup).toMatchObject({ status: 409, body: { error: "ERR_DUPLICATED_CONTACT" } });
    // an inbound message from the first number still lands on the first contact
    await deliver(t, customerMessage(a, { number: "5511966660001", body: "sou eu" }));
    const res = await t.call("GET", "/tickets?searchParam=Primeiro Editado", { token: a.adminToken });
    expect(res.body.tickets[0]?.contact.id).toBe(one.body.id);
  });

  it("keeps each company's contacts apart", async () => {
    const mine = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Só da A", number: "5511922220001" } });
    expect((await t.call("GET", `/contacts/${mine.body.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("PUT", `/contacts/${mine.body.id}`, { token: b.adminToken, body: { name: "Roubado" } })).status).toBe(404);
    expect((await t.call("GET", "/contacts?searchParam=Só da", { token: b.adminToken })).body.contacts).toHaveLength(0);
    // the same number in company B is B's own contact
    const theirs = await t.call("POST", "/contacts", { token: b.adminToken, body: { name: "Da B", number: "5511922220001" } });
    expect(theirs.body.alreadyExists).toBeUndefined();
    expect((await t.call("GET", `/contacts/${mine.body.id}`, { token: a.adminToken })).body.name).toBe("Só da A");
  });
});

describe("deleting a contact", () => {
  const ticketOf = async (tenant: Tenant, contactId: number) => (await adminTickets(t, tenant)).find((x) => x.contact.id === contactId);

  it("is refused while the contact has a pending/open ticket, then deletes it and frees its number", async () => {
    const c = await createTenant(t);
    await deliver(t, customerMessage(c, { number: "5511955550001", body: "quero ajuda", pushName: "Cliente Apagável" }));
    const contactId = (await t.call("GET", "/contacts?searchParam=5511955550001", { token: c.adminToken })).body.contacts[0].id as number;
    const ticket = await ticketOf(c, contactId);
    expect(ticket?.status).toBe("pending");

    const refused = await t.call("DELETE", `/contacts/${contactId}`, { token: c.adminToken });
    expect(refused).toMatchObject({ status: 409, body: { error: "ERR_CONTACT_HAS_OPEN_TICKET" } });
    expect((await t.call("GET", `/contacts/${contactId}`, { token: c.adminToken })).status).toBe(200);

    expect((await t.call("PUT", `/tickets/${ticket!.id}`, { token: c.adminToken, body: { status: "closed" } })).status).toBe(200);
    await t.container.services.sockets.connect("contact-del-sock", c.userToken);
    const mark = t.sender.frames.length;
    const deleted = await t.call("DELETE", `/contacts/${contactId}`, { token: c.adminToken });
    expect(deleted.status).toBe(200);
    expect((await t.call("GET", `/contacts/${contactId}`, { token: c.adminToken })).status).toBe(404);
    expect((await t.call("GET", "/contacts", { token: c.adminToken })).body.count).toBe(0);
    const frame = t.sender.frames.slice(mark).find((f) => f.connectionId === "contact-del-sock")?.frame as { channel: string; data: unknown };
    expect(frame).toMatchObject({ channel: `company-${c.company.id}-contact`, data: { action: "delete", contactId } });

    // the same number writes again: a new contact with a new ticket
    await deliver(t, customerMessage(c, { number: "5511955550001", body: "voltei" }));
    const again = (await t.call("GET", "/contacts?searchParam=5511955550001", { token: c.adminToken })).body.contacts;
    expect(again).toHaveLength(1);
    expect(again[0].id).not.toBe(contactId);
    expect((await ticketOf(c, again[0].id))?.status).toBe("pending");
    // the closed ticket of the deleted contact keeps its history
    expect((await adminTickets(t, c)).find((x) => x.id === ticket!.id)?.status).toBe("closed");
    expect((await t.call("GET", `/messages/${ticket!.id}`, { token: c.adminToken })).body.messages.map((m: { body: string }) => m.body)).toContain("quero ajuda");
  });

  it("is for admins only, and another company cannot delete or see the contact", async () => {
    const mine = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Não Apague", number: "5511933330001" } });
    const id = mine.body.id as number;
    expect((await t.call("DELETE", `/contacts/${id}`, { token: a.userToken })).body.error).toBe("ERR_NO_PERMISSION");
    expect((await t.call("DELETE", `/contacts/${id}`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("DELETE", "/contacts/abc", { token: a.adminToken })).status).toBe(404);
    expect((await t.call("GET", `/contacts/${id}`, { token: a.adminToken })).body.name).toBe("Não Apague");
    // its number is still taken in company A
    expect((await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Outro", number: "5511933330001" } })).body.alreadyExists).toBe(true);
  });
});
