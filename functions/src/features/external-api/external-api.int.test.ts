import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EXTERNAL_API_MESSAGES_PER_MINUTE } from "@atende/shared/domain/external-api/external-message";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets } from "../../testing/inbox-fixtures";

let t: TestApp;
let a: Tenant;
let b: Tenant;
let n = 0;
const nextNumber = () => `55219${String(70000000 + ++n)}`;

afterEach(() => t.clock.set(new Date()));

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
});

const send = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  t.call("POST", "/messages/send", { headers: { authorization: `Bearer ${token}`, ...headers }, body });
const sendsTo = (number: string) => t.commands.sent.filter((c) => c.type === "send" && c.chatJid === `${number}@s.whatsapp.net`);

/** A second, connected, non-default connection of the tenant. */
const secondConnection = async (tenant: Tenant) => {
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = tenant.whatsapp;
  return t.container.repos.whatsapps.create(tenant.company.id, { ...rest, name: `Vendas ${randomBytes(3).toString("hex")}`, isDefault: false, token: randomBytes(24).toString("hex") }, new Date());
};

describe("POST /api/messages/send", () => {
  it("sends through the token's connection (not the default) into the contact's ticket history", async () => {
    const vendas = await secondConnection(a);
    const number = nextNumber();
    const res = await send(vendas.token, { number, body: "Seu pedido saiu para entrega" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mensagem: "Mensagem enviada" });
    expect(sendsTo(number)).toEqual([expect.objectContaining({ whatsappId: vendas.id, companyId: a.company.id, body: "Seu pedido saiu para entrega" })]);
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === number);
    expect(ticket).toMatchObject({ whatsappId: vendas.id });
    const history = await t.call("GET", `/messages/${ticket!.id}`, { token: a.adminToken });
    expect(history.body.messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe])).toEqual([["Seu pedido saiu para entrega", true]]);
  });

  it("uses the contact that already exists (ninth digit normalised) and its open ticket", async () => {
    const number = "5511987650001";
    await send(a.whatsapp.token, { number, body: "primeira" });
    t.clock.advance(1_000); // (the test clock stands still: one second apart, like real traffic)
    await send(a.whatsapp.token, { number: "551187650001", body: "segunda" }); // without the ninth digit
    const tickets = (await adminTickets(t, a)).filter((x) => x.contact.number === number);
    expect(tickets).toHaveLength(1);
    const history = await t.call("GET", `/messages/${tickets[0]!.id}`, { token: a.adminToken });
    expect(history.body.messages.map((m: { body: string }) => m.body)).toEqual(["primeira", "segunda"]);
  });

  it("sends media from a multipart form, the text as the first file's caption", async () => {
    const number = nextNumber();
    const form = new FormData();
    form.append("number", number);
    form.append("body", "segue o boleto");
    form.append("medias", new File([new Uint8Array([37, 80, 68, 70])], "boleto.pdf", { type: "application/pdf" }));
    const res = await t.app.request("/api/messages/send", { method: "POST", body: form, headers: { authorization: `Bearer ${a.whatsapp.token}` } });
    expect(res.status).toBe(200);
    expect(sendsTo(number)).toEqual([expect.objectContaining({ body: "segue o boleto", media: expect.objectContaining({ kind: "document", mimetype: "application/pdf", filename: "boleto.pdf" }) })]);
  });

  it("a retry with the same Idempotency-Key stores and sends nothing new", async () => {
    const number = nextNumber();
    await send(a.whatsapp.token, { number, body: "uma vez" }, { "idempotency-key": "pedido-77" });
    await send(a.whatsapp.token, { number, body: "uma vez" }, { "idempotency-key": "pedido-77" });
    expect(sendsTo(number)).toHaveLength(1);
  });

  it("refuses a missing or unknown token (401) before reading the body", async () => {
    const before = t.commands.sent.length;
    expect(await t.call("POST", "/messages/send", { body: { number: nextNumber(), body: "x" } })).toMatchObject({ status: 401, body: { error: "ERR_INVALID_CREDENTIALS" } });
    expect(await send("not-a-token", { number: nextNumber(), body: "x" })).toMatchObject({ status: 401, body: { error: "ERR_INVALID_CREDENTIALS" } });
    expect(await send("not-a-token", "garbage")).toMatchObject({ status: 401 });
    // a user's session token is not a connection token
    expect(await send(a.adminToken, { number: nextNumber(), body: "x" })).toMatchObject({ status: 401 });
    expect(t.commands.sent.length).toBe(before);
  });

  it("refuses bad input with ERR_VALIDATION and stores nothing", async () => {
    const before = t.commands.sent.length;
    const ticketsBefore = (await adminTickets(t, a)).length;
    for (const body of [{ number: "(11) 98765-4321", body: "x" }, { number: "123", body: "x" }, { number: nextNumber(), body: "   " }, { body: "x" }, "not json"]) {
      const res = await send(a.whatsapp.token, body);
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
    expect(t.commands.sent.length).toBe(before);
    expect((await adminTickets(t, a)).length).toBe(ticketsBefore);
  });

  it("needs the plan's external API and an active company", async () => {
    const c = await createTenant(t, { plan: { useExternalApi: false } });
    expect(await send(c.whatsapp.token, { number: nextNumber(), body: "x" })).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    const d = await createTenant(t);
    await t.container.repos.companies.update(d.company.id, { dueDate: "2020-01-01" }, new Date());
    expect(await send(d.whatsapp.token, { number: nextNumber(), body: "x" })).toMatchObject({ status: 402, body: { error: "ERR_COMPANY_EXPIRED" } });
  });

  it("refuses while the connection is not connected", async () => {
    const c = await createTenant(t);
    await t.container.repos.whatsapps.setSession(c.company.id, c.whatsapp.id, { status: "DISCONNECTED", qrcode: "", retries: 0 }, new Date());
    const number = nextNumber();
    expect(await send(c.whatsapp.token, { number, body: "x" })).toMatchObject({ status: 400, body: { error: "ERR_WAPP_NOT_INITIALIZED" } });
    expect(sendsTo(number)).toEqual([]);
  });

  it(`accepts ${EXTERNAL_API_MESSAGES_PER_MINUTE} messages a minute per token, then 429 (with Retry-After) until a minute after the first`, { timeout: 60_000 }, async () => {
    const c = await createTenant(t);
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    t.clock.set(new Date(minute + 5_000));
    const number = nextNumber();
    for (let i = 0; i < EXTERNAL_API_MESSAGES_PER_MINUTE; i++) expect((await send(c.whatsapp.token, { number, body: `m${i}` })).status).toBe(200);
    const refused = await send(c.whatsapp.token, { number, body: "demais" });
    expect(refused).toMatchObject({ status: 429, body: { error: "ERR_TOO_MANY_ATTEMPTS" } });
    // the window began with the first message (minute + 5 s) and lasts 60 s (docs/adr/0064)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // another company's token is not affected
    expect((await send(b.whatsapp.token, { number: nextNumber(), body: "ok" })).status).toBe(200);
    t.clock.set(new Date(minute + 66_000));
    expect((await send(c.whatsapp.token, { number, body: "de novo" })).status).toBe(200);
    expect(sendsTo(number).map((s) => (s as { body: string }).body)).not.toContain("demais");
  });

  it("a company's token only ever reaches its own contacts and tickets", async () => {
    const number = nextNumber();
    await send(b.whatsapp.token, { number, body: "da empresa B" });
    expect((await adminTickets(t, a)).some((x) => x.contact.number === number)).toBe(false);
    const bTicket = (await adminTickets(t, b)).find((x) => x.contact.number === number);
    expect(bTicket).toBeDefined();
    expect(sendsTo(number)).toEqual([expect.objectContaining({ companyId: b.company.id, whatsappId: b.whatsapp.id })]);
    // and A's admin never sees B's message (ticket ids are per company: the same id may be one of A's own tickets)
    const asA = await t.call("GET", `/messages/${bTicket!.id}`, { token: a.adminToken });
    expect(JSON.stringify(asA.body)).not.toContain("da empresa B");
  });
});
