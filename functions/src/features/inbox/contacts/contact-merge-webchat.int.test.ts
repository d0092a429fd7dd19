import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { customerMessage, deliver } from "../../../testing/inbox-fixtures";
import { createMemoryInboundQueue } from "../../../platform/queues/sqs-inbound.adapter";
import { createContactsRepository } from "./contacts.repository";

/**
 * A website visitor who gives a phone or e-mail already known is offered to the attendant as the same contact
 * (issue 31 point 3; docs/adr/0104): never merged silently; confirming merges the visitor into the known contact,
 * dismissing keeps them apart for good.
 */
const inbound = createMemoryInboundQueue();
const SHOP = "http://shop.localhost:9000";
let t: TestApp;
let a: Tenant;
let b: Tenant;
let publicKey: string;

const consumeQueued = async () => {
  const events = inbound.events.splice(0);
  if (events.length) await deliver(t, ...events);
};
const visitorCall = (path: string, opts: { method?: string; token?: string; body?: unknown } = {}) =>
  t.call(opts.method ?? "GET", `/webchat/${publicKey}/${path}`, { token: opts.token, body: opts.body, address: "203.0.113.9", headers: { origin: SHOP } });
/** A visitor who typed `who` and wrote once: the visitor's token and contact id. */
const visitor = async (who: Record<string, string>, body: string) => {
  const session = await visitorCall("sessions", { method: "POST", body: who });
  expect(session.status).toBe(201);
  const token = session.body.token as string;
  expect((await visitorCall("messages", { method: "POST", token, body: { body } })).status).toBe(201);
  await consumeQueued();
  const tickets = (await t.call("GET", "/tickets?showAll=true&status=pending", { token: a.adminToken })).body.tickets as { id: number; contactId: number; lastMessage: string; contact: { id: number } }[];
  const ticket = tickets.find((x) => x.lastMessage === body)!;
  return { token, contactId: ticket.contactId, ticketId: ticket.id };
};

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" }, { overrides: { inbound } });
  a = await createTenant(t, { plan: { connections: 5 } });
  b = await createTenant(t, { plan: { connections: 5 } });
  const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: "Site", provider: "webchat", allowedOrigins: [SHOP], askEmail: true, askPhone: true } });
  expect(res.status).toBe(200);
  publicKey = (await t.container.webchat.repo.byConnection(a.company.id, res.body.id as number))!.publicKey;
});

describe("the website visitor's same-contact offer", () => {
  it("offers the known contact of the typed phone; confirming merges the visitor into it, and the visitor still reads only the site conversation", async () => {
    await deliver(t, customerMessage(a, { number: "5511944440001", body: "Pelo WhatsApp", pushName: "Joana" }));
    const knownId = (await createContactsRepository(t.container.db).findIdByIdentity(a.company.id, { kind: "N", value: "5511944440001" }))!;
    const v = await visitor({ name: "Joana no site", phone: "(11) 94444-0001" }, "Oi pelo site");
    expect(v.contactId).not.toBe(knownId);
    // nothing merged yet: two contacts, and the attendant is offered the known one
    expect((await t.call("GET", `/contacts/${knownId}`, { token: a.userToken })).status).toBe(200);
    const offer = await t.call("GET", `/contacts/${v.contactId}/same-contact`, { token: a.userToken });
    expect(offer.body).toEqual({ candidates: [{ id: knownId, name: "Joana", number: "5511944440001", email: "", reason: "number" }] });
    // another company never sees it, nor confirms it
    expect((await t.call("GET", `/contacts/${v.contactId}/same-contact`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("POST", `/contacts/${v.contactId}/same-contact/${knownId}/confirm`, { token: b.adminToken })).status).toBe(404);
    // a contact that is not on offer cannot be merged this way
    const stranger = (await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Outra", number: "5511944440099" } })).body.id as number;
    expect((await t.call("POST", `/contacts/${v.contactId}/same-contact/${stranger}/confirm`, { token: a.userToken })).body).toEqual({ error: "ERR_NO_CONTACT_FOUND" });

    const confirmed = await t.call("POST", `/contacts/${v.contactId}/same-contact/${knownId}/confirm`, { token: a.userToken });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ fromId: v.contactId, intoId: knownId, counts: { tickets: 1, messages: 1, identities: 1 } });
    expect((await t.call("GET", `/contacts/${v.contactId}`, { token: a.adminToken })).status).toBe(404);
    expect((await t.call("GET", `/tickets/${v.ticketId}`, { token: a.adminToken })).body).toMatchObject({ contactId: knownId });
    // the visitor keeps chatting in the same ticket; the widget shows the site conversation only (not the WhatsApp one)
    expect((await visitorCall("messages", { method: "POST", token: v.token, body: { body: "Ainda aqui" } })).status).toBe(201);
    await consumeQueued();
    const mine = await visitorCall("messages", { token: v.token });
    // (the test clock stands still: same-second messages keep no order, so compared as a set)
    expect(mine.body.messages.map((m: { body: string }) => m.body).sort()).toEqual(["Ainda aqui", "Oi pelo site"]);
  });

  it("matches the typed e-mail; dismissing keeps them apart and the offer is not made again", async () => {
    const known = (await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Rui", number: "5511944440002", email: "rui@ex.com" } })).body.id as number;
    const v = await visitor({ name: "Rui", email: "RUI@ex.com" }, "Oi, sou o Rui");
    expect((await t.call("GET", `/contacts/${v.contactId}/same-contact`, { token: a.userToken })).body.candidates).toEqual([expect.objectContaining({ id: known, reason: "email" })]);
    expect((await t.call("POST", `/contacts/${v.contactId}/same-contact/${known}/dismiss`, { token: a.userToken })).body).toEqual({ dismissed: true });
    expect((await t.call("GET", `/contacts/${v.contactId}/same-contact`, { token: a.userToken })).body).toEqual({ candidates: [] });
    expect((await t.call("GET", `/contacts/${v.contactId}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", `/contacts/${known}`, { token: a.adminToken })).status).toBe(200);
  });

  it("a visitor who typed nothing known is offered nothing; a WhatsApp contact has no offer", async () => {
    const v = await visitor({ name: "Novo", phone: "11 90000-0000" }, "Primeira vez");
    expect((await t.call("GET", `/contacts/${v.contactId}/same-contact`, { token: a.userToken })).body).toEqual({ candidates: [] });
    const wa = (await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "Zé", number: "5511944440003" } })).body.id as number;
    expect((await t.call("GET", `/contacts/${wa}/same-contact`, { token: a.userToken })).body).toEqual({ candidates: [] });
  });
});
