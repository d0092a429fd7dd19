import { beforeAll, describe, expect, it } from "vitest";
import { addMonths } from "@atende/shared/domain/format/dates";
import { runTick } from "../../app/tick";
import type { FakeBank } from "../../platform/payments/fake-bank.adapter";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { makeOperator } from "../../testing/operator";
import { createInvoicesRepository } from "./invoices.repository";

const SECRET = "webhook-secret-for-tests-0123456789";
const DAY = 86_400_000;

let t: TestApp;
let bank: FakeBank;

/** Our app's shape (`paged=1`): `{ list, hasMore }`. */
const invoicesOf = async (tenant: Tenant, query = "") => (await t.call("GET", `/invoices/all${query || "?"}${query ? "&" : ""}paged=1`, { token: tenant.adminToken })).body;
const companyOf = (tenant: Tenant) => t.container.repos.companies.findById(tenant.company.id);
const webhook = (body: unknown, secret = SECRET) => t.call("POST", "/subscription/webhook", { body, headers: { "x-webhook-secret": secret } });

beforeAll(async () => {
  t = await createTestApp({ PAYMENTS_PROVIDER: "fake", PAYMENTS_WEBHOOK_SECRET: SECRET });
  bank = t.container.fakeBank as FakeBank;
  // the fake bank calls our webhook over the app's HTTP interface, as a provider would
  bank.setWebhook({ url: "http://localhost/api/subscription/webhook", fetch: (req) => Promise.resolve(t.app.fetch(req)) });
});

describe("invoice generation (minute tick)", () => {
  it("issues one invoice per period, ahead of the due date, even when ticks repeat or overlap", async () => {
    const soon = await createTenant(t, { dueDate: new Date(t.clock.now.getTime() + 5 * DAY).toISOString(), plan: { value: 149.9 } });
    const later = await createTenant(t, { dueDate: new Date(t.clock.now.getTime() + 40 * DAY).toISOString() });

    await runTick(t.container);
    await Promise.all([t.container.services.invoicesJob.run(t.clock.now), t.container.services.invoicesJob.run(t.clock.now), runTick(t.container)]);
    await runTick(t.container);

    const mine = await invoicesOf(soon);
    expect(mine.list).toHaveLength(1);
    expect(mine.list[0]).toMatchObject({ value: 149.9, status: "open", dueDate: soon.company.dueDate, companyId: soon.company.id });
    expect((await invoicesOf(later)).list).toHaveLength(0);
  });

  it("a company with a due date but no plan gets no invoice and leaves the billing index", async () => {
    const tenant = await createTenant(t, { dueDate: new Date(t.clock.now.getTime() + 3 * DAY).toISOString() });
    await t.container.repos.companies.update(tenant.company.id, { planId: null }, t.clock.now);
    await runTick(t.container);
    expect((await invoicesOf(tenant)).list).toHaveLength(0);
    const until = new Date(t.clock.now.getTime() + 10 * DAY).toISOString();
    const { items } = await t.container.repos.companies.listAwaitingInvoice(until, 100);
    expect(items.map((c) => c.id)).not.toContain(tenant.company.id);
  });

  it("a period already invoiced is not invoiced again when the company re-enters the index with the same due date", async () => {
    const tenant = await createTenant(t, { dueDate: new Date(t.clock.now.getTime() + 3 * DAY).toISOString() });
    await runTick(t.container);
    // an operator saves the company without changing the due date: it is indexed again
    await t.container.repos.companies.update(tenant.company.id, { dueDate: tenant.company.dueDate }, t.clock.now);
    await runTick(t.container);
    expect((await invoicesOf(tenant)).list).toHaveLength(1);
  });
});

describe("GET /invoices/all", () => {
  it("pages by 20, newest first, with search on the detail or the id", async () => {
    const tenant = await createTenant(t);
    const repo = createInvoicesRepository(t.container.db);
    for (let i = 0; i < 25; i++) {
      const due = addMonths(t.clock.now, i + 2).toISOString();
      await repo.createForPeriod({ companyId: tenant.company.id, detail: i % 5 === 0 ? `Plano Especial ${i}` : `Plano ${i}`, value: 10 + i, dueDate: due, period: due.slice(0, 10) }, t.clock.now);
    }
    const p1 = await invoicesOf(tenant, "?pageNumber=1");
    expect(p1.list).toHaveLength(20);
    expect(p1.hasMore).toBe(true);
    expect(p1.list[0].value).toBe(34);
    const p2 = await invoicesOf(tenant, "?pageNumber=2");
    expect(p2.list).toHaveLength(5);
    expect(p2.hasMore).toBe(false);
    expect(new Set([...p1.list, ...p2.list].map((i: { id: number }) => i.id)).size).toBe(25);

    const found = await invoicesOf(tenant, "?searchParam=especial");
    expect(found.list.map((i: { detail: string }) => i.detail).sort()).toEqual(["Plano Especial 0", "Plano Especial 10", "Plano Especial 15", "Plano Especial 20", "Plano Especial 5"]);
    const byId = await invoicesOf(tenant, `?searchParam=${p2.list[0].id}`);
    expect(byId.list.map((i: { id: number }) => i.id)).toContain(p2.list[0].id);
    expect(byId.list.length).toBeLessThan(25);

    // the spec's clients (no `paged`): the reference's plain array, every invoice on page 1, newest first
    const plain = (await t.call("GET", "/invoices/all?searchParam=&pageNumber=1", { token: tenant.adminToken })).body;
    expect(Array.isArray(plain)).toBe(true);
    expect(plain).toHaveLength(25);
    expect(plain.map((i: { id: number }) => i.id)).toEqual([...p1.list, ...p2.list].map((i: { id: number }) => i.id));
    expect((await t.call("GET", "/invoices/all?pageNumber=2", { token: tenant.adminToken })).body).toEqual([]);
    const plainFound = (await t.call("GET", "/invoices/all?searchParam=especial", { token: tenant.adminToken })).body;
    expect(plainFound).toHaveLength(5);
  });

  it("is for admins; bad paging input is refused", async () => {
    const tenant = await createTenant(t);
    expect((await t.call("GET", "/invoices/all", { token: tenant.userToken })).status).toBe(403);
    expect((await t.call("GET", "/invoices/all")).status).toBe(401);
    const bad = await t.call("GET", "/invoices/all?pageNumber=abc", { token: tenant.adminToken });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_VALIDATION");
  });
});

describe("checkout and payment", () => {
  let tenant: Tenant;
  let invoiceId: number;

  beforeAll(async () => {
    tenant = await createTenant(t, { dueDate: new Date(t.clock.now.getTime() + 2 * DAY).toISOString(), plan: { value: 100 } });
    await t.container.services.invoicesJob.run(t.clock.now);
    invoiceId = (await invoicesOf(tenant)).list[0].id;
  });

  it("POST /subscription answers the Pix data of a charge for the invoice's value, reused while open", async () => {
    const res = await t.call("POST", "/subscription", { token: tenant.adminToken, body: { invoiceId, price: 1, plan: { users: 1, connections: 1, price: 1 } } });
    expect(res.status).toBe(200);
    expect(res.body.valor.original).toBe("100.00");
    expect(res.body.qrcode.qrcode).toMatch(/^000201.*br\.gov\.bcb\.pix.*5406100\.00.*6304[0-9A-F]{4}$/);
    const again = await t.call("POST", "/subscription", { token: tenant.adminToken, body: { invoiceId } });
    expect(again.body.txid).toBe(res.body.txid);
  });

  it("refuses bad input, unknown invoices and attendants, creating no charge", async () => {
    const before = bank.list().length;
    const bad = await t.call("POST", "/subscription", { token: tenant.adminToken, body: { invoiceId: "x" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_VALIDATION");
    const missing = await t.call("POST", "/subscription", { token: tenant.adminToken, body: { invoiceId: 99999 } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("ERR_NO_INVOICE_FOUND");
    expect((await t.call("POST", "/subscription", { token: tenant.userToken, body: { invoiceId } })).status).toBe(403);
    expect(bank.list().length).toBe(before);
  });

  it("a forged notification (bad secret, unknown or unpaid charge) is refused and changes nothing", async () => {
    const { body } = await t.call("POST", "/subscription", { token: tenant.adminToken, body: { invoiceId } });
    const due = (await companyOf(tenant))?.dueDate;

    const badSecret = await webhook({ pix: [{ txid: body.txid }] }, "wrong-secret-wrong-secret-123456");
    expect(badSecret.status).toBe(403);
    expect((await t.call("POST", "/subscription/webhook", { body: { pix: [{ txid: body.txid }] } })).status).toBe(403);
    const unknown = await webhook({ pix: [{ txid: `AT${String(tenant.company.id).padStart(10, "0")}${String(invoiceId).padStart(10, "0")}deadbeef` }] });
    expect(unknown.status).toBe(404);
    const unpaid = await webhook({ pix: [{ txid: body.txid }] });
    expect(unpaid.status).toBe(400);
    expect((await webhook({ nothing: true })).status).toBe(400);
    expect((await t.call("POST", "/subscription/webhook/pix?hmac=nope", { body: { pix: [{ txid: body.txid }] } })).status).toBe(403);

    expect((await invoicesOf(tenant)).list[0].status).toBe("open");
    expect((await companyOf(tenant))?.dueDate).toBe(due);
  });

  it("paying through the fake bank marks the invoice paid and moves the due date by one recurrence, once", async () => {
    const { body } = await t.call("POST", "/subscription", { token: tenant.adminToken, body: { invoiceId } });
    const before = (await companyOf(tenant))?.dueDate as string;

    const paid = await bank.pay(body.txid);
    expect(paid.webhookStatus).toBe(200);
    const expected = addMonths(before, 1).toISOString();
    expect((await companyOf(tenant))?.dueDate).toBe(expected);
    const list = (await invoicesOf(tenant)).list;
    expect(list[0]).toMatchObject({ id: invoiceId, status: "paid" });

    // the provider retries the notification, twice at once: nothing moves again
    const replays = await Promise.all([bank.notify(body.txid), bank.notify(body.txid)]);
    expect(replays).toEqual([200, 200]);
    expect((await companyOf(tenant))?.dueDate).toBe(expected);

    const payAgain = await t.call("POST", "/subscription", { token: tenant.adminToken, body: { invoiceId } });
    expect(payAgain.status).toBe(409);
    expect(payAgain.body.error).toBe("ERR_INVOICE_ALREADY_PAID");

    // the next period is invoiced when it comes within the lead days, once
    await runTick(t.container);
    expect((await invoicesOf(tenant)).list).toHaveLength(1);
    t.clock.set(new Date(new Date(expected).getTime() - 9 * DAY));
    await runTick(t.container);
    await runTick(t.container);
    const next = (await invoicesOf(tenant)).list;
    expect(next).toHaveLength(2);
    expect(next[0]).toMatchObject({ status: "open", dueDate: expected });
    t.clock.set(new Date());
  });

  it("the payment reaches the company's admins as a CONCLUIDA event with the new due date", async () => {
    const frames = t.sender.frames.map((f) => f.frame as { channel: string; data: { action: string; company: { id: number } } });
    // no socket connected in this test: nothing is sent to anybody else either
    expect(frames.filter((f) => f.channel.endsWith("-payment") && f.data.company.id !== tenant.company.id)).toHaveLength(0);
  });
});

describe("tenancy", () => {
  it("company B can neither see nor pay company A's invoices", async () => {
    const a = await createTenant(t, { dueDate: new Date(t.clock.now.getTime() + 4 * DAY).toISOString() });
    const b = await createTenant(t);
    await t.container.services.invoicesJob.run(t.clock.now);
    const aInvoice = (await invoicesOf(a)).list[0];

    const list = await t.call("GET", `/invoices/all?companyId=${a.company.id}`, { token: b.adminToken });
    expect(list.status).toBe(403);
    expect((await invoicesOf(b)).list.some((i: { companyId: number }) => i.companyId === a.company.id)).toBe(false);

    const pay = await t.call("POST", "/subscription", { token: b.adminToken, body: { invoiceId: aInvoice.id } });
    expect(pay.status).toBe(404);
    const stored = await createInvoicesRepository(t.container.db).findById(a.company.id, aInvoice.id);
    expect(stored?.chargeId).toBeNull();
  });

  it("the operator may list any company's invoices", async () => {
    const a = await createTenant(t, { dueDate: new Date(t.clock.now.getTime() + 4 * DAY).toISOString() });
    const op = await createTenant(t);
    const token = await makeOperator(t, op);
    await t.container.services.invoicesJob.run(t.clock.now);
    const res = await t.call("GET", `/invoices/all?companyId=${a.company.id}&paged=1`, { token });
    expect(res.status).toBe(200);
    expect(res.body.list).toHaveLength(1);
    expect(res.body.list[0].companyId).toBe(a.company.id);
  });
});
