import { ScanCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { customerMessage, deliver } from "../../../testing/inbox-fixtures";
import { companyPk } from "../../../platform/db/keys";
import { createOptOutsRepository } from "../../lgpd/opt-outs.repository";
import { createContactMergeRepository } from "./contact-merge.repository";
import { createContactsRepository } from "./contacts.repository";

/**
 * Contacts merged, never duplicated (issue 34 point 5; docs/adr/0103): every kind of item moves, nothing is left
 * under the merged contact, dryRun changes nothing, the refusals, and a merge cut halfway finishes when run again.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
});

type Item = Record<string, unknown> & { pk: string; sk: string };
/** Every item of the table (a test may scan; the code never does). */
const allItems = async (): Promise<Item[]> => {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await t.container.db.doc.send(new ScanCommand({ TableName: t.tableName, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
};
/** The items that name contact `id` of company `c`: by attribute, by key or by index key. */
const itemsOf = async (c: number, id: number) => {
  const p = companyPk(c);
  const keyed = [`${p}#CT#${id}`, `${p}#CMSG#${id}`, `${p}#LGPDJOBS#${id}`, `${p}#CALIAS#${id}`, `${p}#CSAME#${id}`];
  return (await allItems()).filter(
    (i) =>
      (i.pk.startsWith(p) && (Number(i.contactId) === id || (i.sk === `CONTACT#${String(id).padStart(10, "0")}` && i.pk === p))) ||
      keyed.includes(i.pk) ||
      keyed.includes(String(i.gsi1pk)) ||
      keyed.includes(String(i.gsi2pk)) ||
      i.pk.startsWith(`${p}#OPEN#${id}#`) ||
      i.pk.startsWith(`${p}#RATE#${id}#`),
  );
};

/** A contact's tickets through its pointers (what the merge moves), oldest first. */
const ticketsOf = async (tenant: Tenant, contactId: number) =>
  (await createContactMergeRepository(t.container.db).ticketsOf(tenant.company.id, contactId))
    .map((x) => ({ id: Number(x.id), contactId: Number(x.contactId), status: String(x.status) }))
    .sort((x, y) => x.id - y.id);
const inbound = async (tenant: Tenant, number: string, body: string, lid?: string) => deliver(t, customerMessage(tenant, { number, body, lid, pushName: "Marta" }));
const contactByNumber = async (tenant: Tenant, number: string) => {
  const id = await createContactsRepository(t.container.db).findIdByIdentity(tenant.company.id, { kind: "N", value: number });
  return id!;
};

/** A contact with one of everything: a ticket (tag, note), messages, extra info, a schedule, an opt-out, a list entry, an LGPD record. */
const richContact = async (tenant: Tenant, number: string, lid: string) => {
  await inbound(tenant, number, "Oi, sou a Marta", lid);
  await inbound(tenant, number, "Segunda mensagem");
  const id = await contactByNumber(tenant, number);
  const [ticket] = await ticketsOf(tenant, id);
  const tag = await t.call("POST", "/tags", { token: tenant.adminToken, body: { name: `VIP ${number}`, color: "#ff0000" } });
  expect((await t.call("PUT", `/ticket-tags/${ticket!.id}/${tag.body.id}`, { token: tenant.adminToken })).status).toBe(200);
  expect((await t.call("POST", "/ticket-notes", { token: tenant.adminToken, body: { note: "Cliente antiga", ticketId: ticket!.id, contactId: id } })).status).toBe(201);
  const put = await t.call("PUT", `/contacts/${id}`, { token: tenant.adminToken, body: { name: "Marta Antiga", number, email: "marta@ex.com", extraInfo: [{ name: "CPF", value: "123" }] } });
  expect(put.status).toBe(200);
  const sendAt = new Date(Date.now() + 86_400_000).toISOString();
  expect((await t.call("POST", "/schedules", { token: tenant.adminToken, body: { body: "Lembrete", sendAt, contactId: id } })).status).toBe(200);
  await createOptOutsRepository(t.container.db).add({ companyId: tenant.company.id, number, contactId: id, optedOutAt: new Date().toISOString(), message: "SAIR", source: "message", campaignId: null } as never);
  const list = await t.call("POST", "/contact-lists", { token: tenant.adminToken, body: { name: `Lista ${number}` } });
  expect((await t.call("POST", "/contact-list-items", { token: tenant.adminToken, body: { name: "Marta", number, email: "", contactListId: String(list.body.id) } })).status).toBe(200);
  await t.container.db.doc.send(
    new PutCommand({
      TableName: t.tableName,
      Item: { pk: companyPk(tenant.company.id), sk: `LGPDJOB#m${id}`, entity: "lgpdJob", id: `m${id}`, kind: "export", status: "done", contactId: id, gsi1pk: `${companyPk(tenant.company.id)}#LGPDJOBS#${id}`, gsi1sk: "2026#1" },
    }),
  );
  // the customer's two and whatever the company sent (greetings, notices)
  const messages = ((await t.call("GET", `/messages/${ticket!.id}`, { token: tenant.adminToken })).body.messages as unknown[]).length;
  expect(messages).toBeGreaterThanOrEqual(2);
  return { id, ticketId: ticket!.id, messages };
};

describe("POST /contacts/{id}/merge", () => {
  it("moves every kind of item to the kept contact, leaves nothing under the merged one, and dryRun changes nothing", async () => {
    const from = await richContact(a, "5511988880001", "880001");
    const into = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Marta Nova", number: "5511977770001", extraInfo: [{ name: "Cidade", value: "SP" }] } });
    const intoId = into.body.id as number;
    const before = await itemsOf(a.company.id, from.id);
    expect(before.length).toBeGreaterThan(10);

    const dry = await t.call("POST", `/contacts/${from.id}/merge`, { token: a.adminToken, body: { intoId, dryRun: true } });
    expect(dry.status).toBe(200);
    const expected = { tickets: 1, messages: from.messages, notes: 1, tags: 1, extraInfo: 1, schedules: 1, listMemberships: 1, optOuts: 1, lgpdRecords: 1, identities: 2 };
    expect(dry.body).toEqual({ dryRun: true, fromId: from.id, intoId, counts: expected });
    expect((await itemsOf(a.company.id, from.id)).map((i) => [i.pk, i.sk, i.contactId, i.gsi2pk]).sort()).toEqual(before.map((i) => [i.pk, i.sk, i.contactId, i.gsi2pk]).sort());

    const done = await t.call("POST", `/contacts/${from.id}/merge`, { token: a.adminToken, body: { intoId } });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ dryRun: false, fromId: from.id, intoId, counts: expected });
    expect(await itemsOf(a.company.id, from.id)).toEqual([]);
    expect((await t.call("GET", `/contacts/${from.id}`, { token: a.adminToken })).body).toEqual({ error: "ERR_NO_CONTACT_FOUND" });

    // the kept contact: its own fields kept, what it lacked gained; the ticket, messages and note are its own now
    const kept = (await t.call("GET", `/contacts/${intoId}`, { token: a.adminToken })).body;
    expect(kept).toMatchObject({ name: "Marta Nova", number: "5511977770001", email: "marta@ex.com", lid: "880001", extraInfo: [{ name: "Cidade", value: "SP" }, { name: "CPF", value: "123" }] });
    expect((await ticketsOf(a, intoId)).map((x) => x.id)).toEqual([from.ticketId]);
    expect((await t.call("GET", `/tickets/${from.ticketId}`, { token: a.adminToken })).body).toMatchObject({ contactId: intoId, contact: { id: intoId, name: "Marta Nova" } });
    const messages = (await t.call("GET", `/messages/${from.ticketId}`, { token: a.adminToken })).body.messages as { body: string; contactId: number }[];
    expect(messages.map((m) => [m.body, m.contactId])).toEqual(expect.arrayContaining([["Oi, sou a Marta", intoId], ["Segunda mensagem", intoId]]));
    const notes = (await t.call("GET", `/ticket-notes/list?ticketId=${from.ticketId}&contactId=${intoId}`, { token: a.adminToken })).body as { note: string }[];
    expect(notes.map((n) => n.note)).toEqual(["Cliente antiga"]);
    // the merged number and LID are the kept contact's: a new message lands in the same conversation, no new contact
    await inbound(a, "5511988880001", "Voltei");
    await deliver(t, customerMessage(a, { chatJid: "880001@lid", body: "Pelo LID", pushName: "Marta" }));
    expect((await ticketsOf(a, intoId)).map((x) => x.id)).toEqual([from.ticketId]);
    expect(await contactByNumber(a, "5511988880001")).toBe(intoId);
    // the opt-out reaches the kept number too; the schedule names the kept contact
    expect((await t.call("GET", `/contacts/${intoId}/opt-out`, { token: a.adminToken })).body).toMatchObject({ optedOut: true });
    const schedules = (await t.call("GET", "/schedules/", { token: a.adminToken })).body.schedules as { contactId: number }[];
    expect(schedules.map((s) => s.contactId)).toContain(intoId);
    // the trail: both ids and the counts
    const audit = await t.call("GET", `/audit-logs?action=merge&recordKind=contact&recordId=${intoId}`, { token: a.adminToken });
    expect(audit.body.logs[0]).toMatchObject({ record: { kind: "contact", id: String(intoId) }, changes: { mergedContactId: { from: from.id, to: intoId }, messages: { from: 0, to: from.messages } } });
  });

  it("two open tickets on one connection: refused with the ticket to close; after closing it, the merge goes through", async () => {
    await inbound(a, "5511988880002", "Oi A");
    await inbound(a, "5511977770002", "Oi B");
    const fromId = await contactByNumber(a, "5511988880002");
    const intoId = await contactByNumber(a, "5511977770002");
    const [fromTicket] = await ticketsOf(a, fromId);
    const [intoTicket] = await ticketsOf(a, intoId);
    const refused = await t.call("POST", `/contacts/${fromId}/merge`, { token: a.adminToken, body: { intoId } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "ERR_MERGE_OPEN_TICKETS", data: { close: [{ ticketId: fromTicket!.id, whatsappId: a.whatsapp.id, keptTicketId: intoTicket!.id }] } });
    expect(await contactByNumber(a, "5511988880002")).toBe(fromId);
    expect((await t.call("PUT", `/tickets/${fromTicket!.id}`, { token: a.adminToken, body: { status: "closed" } })).status).toBe(200);
    const dry = await t.call("POST", `/contacts/${fromId}/merge`, { token: a.adminToken, body: { intoId, dryRun: true } });
    const done = await t.call("POST", `/contacts/${fromId}/merge`, { token: a.adminToken, body: { intoId } });
    expect(done.body.counts).toEqual(dry.body.counts);
    expect(done.body.counts).toMatchObject({ tickets: 1, messages: expect.any(Number) });
    expect(await itemsOf(a.company.id, fromId)).toEqual([]);
    expect((await ticketsOf(a, intoId)).map((x) => x.status).sort()).toEqual(["closed", "pending"]);
  });

  it("after a merge, a search for a moved message finds it under the kept contact's name", async () => {
    await inbound(a, "5511988880009", "Pedido zebra4417 atrasado");
    await inbound(a, "5511977770009", "Oi");
    const fromId = await contactByNumber(a, "5511988880009");
    const intoId = await contactByNumber(a, "5511977770009");
    expect((await t.call("PUT", `/contacts/${intoId}`, { token: a.adminToken, body: { name: "Marta Mantida", number: "5511977770009" } })).status).toBe(200);
    const [fromTicket] = await ticketsOf(a, fromId);
    expect((await t.call("PUT", `/tickets/${fromTicket!.id}`, { token: a.adminToken, body: { status: "closed" } })).status).toBe(200);
    expect((await t.call("POST", `/contacts/${fromId}/merge`, { token: a.adminToken, body: { intoId } })).status).toBe(200);
    const found = await t.call("GET", "/search?q=zebra4417", { token: a.adminToken });
    expect(found.status).toBe(200);
    expect(found.body.results).toEqual([expect.objectContaining({ ticketId: fromTicket!.id, contact: expect.objectContaining({ id: intoId, name: "Marta Mantida" }) })]);
  });

  it("refuses into itself, into another company's contact, an attendant, and while an LGPD erasure runs", async () => {
    const one = (await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Um", number: "5511955550001" } })).body.id as number;
    const two = (await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Dois", number: "5511955550002" } })).body.id as number;
    // ids are per company: B's contact must have an id A does not use, or A would legitimately reach its own
    let atB = 0;
    for (let i = 0; !atB || (await t.call("GET", `/contacts/${atB}`, { token: a.adminToken })).status !== 404; i++)
      atB = (await t.call("POST", "/contacts", { token: b.adminToken, body: { name: "De B", number: `55119555500${String(i).padStart(2, "0")}` } })).body.id as number;
    const merge = (token: string, id: number, body: unknown) => t.call("POST", `/contacts/${id}/merge`, { token, body });
    expect((await merge(a.adminToken, one, { intoId: one })).body).toEqual({ error: "ERR_MERGE_SAME_CONTACT" });
    const foreign = await merge(a.adminToken, one, { intoId: atB });
    expect([foreign.status, foreign.body]).toEqual([404, { error: "ERR_NO_CONTACT_FOUND" }]);
    expect((await merge(b.adminToken, one, { intoId: atB })).status).toBe(404);
    const user = await merge(a.userToken, one, { intoId: two });
    expect([user.status, user.body]).toEqual([403, { error: "ERR_NO_PERMISSION" }]);
    expect((await merge(a.adminToken, one, { intoId: "x" })).body.error).toBe("ERR_VALIDATION");
    await t.container.db.doc.send(
      new PutCommand({
        TableName: t.tableName,
        Item: { pk: companyPk(a.company.id), sk: "LGPDJOB#erasing", entity: "lgpdJob", id: "erasing", kind: "erase", status: "running", contactId: two, gsi1pk: `${companyPk(a.company.id)}#LGPDJOBS#${two}`, gsi1sk: "2026#2" },
      }),
    );
    expect((await merge(a.adminToken, one, { intoId: two })).body).toEqual({ error: "ERR_MERGE_ERASURE_RUNNING" });
    expect((await merge(a.adminToken, two, { intoId: one, dryRun: true })).body).toEqual({ error: "ERR_MERGE_ERASURE_RUNNING" });
    expect((await t.call("GET", `/contacts/${one}`, { token: a.adminToken })).body.name).toBe("Um");
  });

  it("a merge cut halfway (marker, identities and the ticket moved, the messages not) finishes when run again; another target is refused meanwhile", async () => {
    const from = await richContact(a, "5511988880003", "880003");
    const intoId = (await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Destino", number: "5511977770003" } })).body.id as number;
    const other = (await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Outro", number: "5511977770004" } })).body.id as number;
    const repo = createContactMergeRepository(t.container.db);
    const c = a.company.id;
    await repo.putMarker(c, from.id, intoId, new Date());
    await repo.repointIdentity(c, { kind: "N", value: "5511988880003" }, from.id, intoId);
    const [ticket] = await repo.ticketsOf(c, from.id);
    await repo.moveTicket(c, ticket!, from.id, intoId);
    expect((await itemsOf(c, from.id)).length).toBeGreaterThan(0);
    expect((await t.call("POST", `/contacts/${from.id}/merge`, { token: a.adminToken, body: { intoId: other } })).body).toEqual({ error: "ERR_MERGE_IN_PROGRESS" });
    const again = await t.call("POST", `/contacts/${from.id}/merge`, { token: a.adminToken, body: { intoId } });
    expect(again.status).toBe(200);
    expect(again.body.counts).toMatchObject({ tickets: 0, messages: from.messages, identities: 1 });
    expect(await itemsOf(c, from.id)).toEqual([]);
    expect((await ticketsOf(a, intoId)).map((x) => x.id)).toEqual([from.ticketId]);
    // once done, the same call answers that nothing is left to move... and the contact is gone
    expect((await t.call("POST", `/contacts/${from.id}/merge`, { token: a.adminToken, body: { intoId } })).body).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
  });
});

describe("GET /contacts/duplicates", () => {
  it("groups the same number in other forms, the same e-mail, the same LID and a similar name with the same last 8 digits; admins only; per company", async () => {
    const c = await createTenant(t);
    const make = async (name: string, number: string, email = "") => (await t.call("POST", "/contacts", { token: c.adminToken, body: { name, number, email } })).body.id as number;
    const n1 = await make("Marta", "5511966660001");
    const n2 = await make("Marta S", "11966660001");
    const e1 = await make("Ana", "5511966660002", "ana@ex.com");
    const e2 = await make("Ana Paula", "5511966660003", "ANA@ex.com");
    const s1 = await make("Caio Souza", "351966660004");
    const s2 = await make("caio", "5511966660004");
    const l1 = await make("Lia", "5511966660005");
    const l2 = await make("Lia", "5511966660006");
    await make("Sozinho", "5511966660007");
    const contacts = createContactsRepository(t.container.db);
    for (const id of [l1, l2]) await contacts.setProfile(c.company.id, id, { lid: "999111" }, new Date());
    const res = await t.call("GET", "/contacts/duplicates", { token: c.adminToken });
    expect(res.status).toBe(200);
    const groups = (res.body.groups as { reason: string; contacts: { id: number }[] }[]).map((g) => [g.reason, g.contacts.map((x) => x.id)]);
    expect(groups).toEqual(
      expect.arrayContaining([
        ["number", [n1, n2]],
        ["email", [e1, e2]],
        ["name", [s1, s2]],
        ["lid", [l1, l2]],
      ]),
    );
    expect(groups).toHaveLength(4);
    expect(res.body.groups[0].contacts[0]).toEqual({ id: expect.any(Number), name: expect.any(String), number: expect.any(String), email: expect.any(String) });
    expect((await t.call("GET", "/contacts/duplicates", { token: c.userToken })).status).toBe(403);
    expect((await t.call("GET", "/contacts/duplicates", { token: b.adminToken })).body.groups).toEqual([]);
  });
});
