import { beforeAll, describe, expect, it } from "vitest";
import { QUEUE_COLORS } from "@atende/shared/domain/queues/queues";
import type { AuditEntry } from "@atende/shared/domain/audit/audit";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { makeOperator } from "../../testing/operator";
import { adminTickets, customerMessage, deliver } from "../../testing/inbox-fixtures";

/**
 * The audit trail over HTTP (issue 14 item 2): an entry for each kind of change an admin or the operator makes,
 * sign-ins, ticket transfers and deletions; nothing editable; company B never sees company A's entries.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let op: Tenant;
let opToken: string;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
  op = await createTenant(t);
  opToken = await makeOperator(t, op);
});

const logs = async (token: string, query: Record<string, string | number> = {}) => {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await t.call("GET", `/audit-logs${qs ? `?${qs}` : ""}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.logs as AuditEntry[];
};

/** The newest entry of `kind` #id with `action`, as the company's admin (or the operator) sees it. */
const entryFor = async (token: string, action: string, kind: string, id: string | number, extra: Record<string, string | number> = {}) => {
  const found = (await logs(token, { action, recordKind: kind, recordId: String(id), ...extra }))[0];
  expect(found, `${action} ${kind} #${id}`).toBeDefined();
  return found!;
};

const customerTicket = async (tenant: Tenant) => {
  seq++;
  const number = `55119${String(60000000 + seq * 13).padStart(8, "0")}`;
  await deliver(t, customerMessage(tenant, { number, body: "oi", pushName: `Cliente ${seq}` }));
  await deliver(t, customerMessage(tenant, { number, body: "1" }));
  return (await adminTickets(t, tenant)).find((x: { contact: { number: string } }) => x.contact.number === number)!;
};

describe("an entry for each kind of change", () => {
  it("users: create, update (password masked), delete — with who, when and the address", async () => {
    const created = await t.call("POST", "/users", { token: a.adminToken, body: { name: "Nova Pessoa", email: `nova-${Date.now()}@x.com`, password: "Senha1234", profile: "user", queueIds: [] } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const create = await entryFor(a.adminToken, "create", "user", id);
    expect(create).toMatchObject({ companyId: a.company.id, actor: { kind: "user", userId: a.admin.id, name: a.admin.name, profile: "admin" }, ip: "127.0.0.1" });
    expect(create.changes.name).toEqual({ from: null, to: "Nova Pessoa" });
    expect(Date.parse(create.at)).toBeGreaterThan(0);
    expect(JSON.stringify(create)).not.toContain("Senha1234");

    await t.call("PUT", `/users/${id}`, { token: a.adminToken, body: { name: "Nova Pessoa 2", password: "Outra1234" }, address: "198.51.100.4" });
    const update = await entryFor(a.adminToken, "update", "user", id);
    expect(update.ip).toBe("198.51.100.4");
    expect(update.changes.name).toEqual({ from: "Nova Pessoa", to: "Nova Pessoa 2" });
    expect(update.changes.passwordHash ?? update.changes.password).toEqual({ from: "••••••••", to: "••••••••" });
    expect(JSON.stringify(update)).not.toMatch(/Outra1234|\$2[aby]\$/);

    expect((await t.call("DELETE", `/users/${id}`, { token: a.adminToken })).status).toBe(200);
    await entryFor(a.adminToken, "delete", "user", id);
  });

  it("queues", async () => {
    const created = await t.call("POST", "/queue", { token: a.adminToken, body: { name: "Financeiro", color: QUEUE_COLORS[5], greetingMessage: "Olá" } });
    const id = created.body.id;
    await entryFor(a.adminToken, "create", "queue", id);
    await t.call("PUT", `/queue/${id}`, { token: a.adminToken, body: { name: "Financeiro 2", color: QUEUE_COLORS[5], greetingMessage: "Olá" } });
    expect((await entryFor(a.adminToken, "update", "queue", id)).changes.name).toEqual({ from: "Financeiro", to: "Financeiro 2" });
    await t.call("DELETE", `/queue/${id}`, { token: a.adminToken });
    await entryFor(a.adminToken, "delete", "queue", id);
  });

  it("connections", async () => {
    const created = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: "Loja 2", greetingMessage: "Olá", queueIds: [] } });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const create = await entryFor(a.adminToken, "create", "connection", id);
    expect(JSON.stringify(create)).not.toContain(created.body.token ?? "no-token-answered");
    await t.call("PUT", `/whatsapp/${id}`, { token: a.adminToken, body: { name: "Loja 3", greetingMessage: "Olá", queueIds: [] } });
    expect((await entryFor(a.adminToken, "update", "connection", id)).changes.name).toEqual({ from: "Loja 2", to: "Loja 3" });
    await t.call("DELETE", `/whatsapp/${id}`, { token: a.adminToken });
    await entryFor(a.adminToken, "delete", "connection", id);
  });

  it("settings", async () => {
    await t.call("PUT", "/settings/userRating", { token: a.adminToken, body: { value: "enabled" } });
    expect((await entryFor(a.adminToken, "update", "setting", "userRating")).changes).toEqual({ value: { from: "disabled", to: "enabled" } });
  });

  it("prompts (the API key masked) and integrations", async () => {
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz123456";
    const prompt = await t.call("POST", "/prompt", { token: a.adminToken, body: { name: "Virtual", prompt: "Seja educado.", apiKey: key, queueId: a.queues[0]!.id } });
    expect(prompt.status).toBe(200);
    const create = await entryFor(a.adminToken, "create", "prompt", prompt.body.id);
    expect(create.changes.apiKey).toEqual({ from: null, to: "••••••••" });
    expect(JSON.stringify(await logs(a.adminToken))).not.toContain("abcdefghijklmnop");
    await t.call("DELETE", `/prompt/${prompt.body.id}`, { token: a.adminToken });
    await entryFor(a.adminToken, "delete", "prompt", prompt.body.id);

    const hook = await t.call("POST", "/queueIntegration", { token: a.adminToken, body: { type: "webhook", name: "Meu webhook", urlN8N: "http://crm.local/hook" } });
    expect(hook.status).toBe(200);
    await entryFor(a.adminToken, "create", "integration", hook.body.id);
    await t.call("DELETE", `/queueIntegration/${hook.body.id}`, { token: a.adminToken });
    await entryFor(a.adminToken, "delete", "integration", hook.body.id);
  });

  it("campaigns", async () => {
    const body = { name: "Black Friday", message1: "Olá {nome}", message2: "", confirmation: false, scheduledAt: null, whatsappId: a.whatsapp.id, contactListId: null, tagListId: "Nenhuma" };
    const created = await t.call("POST", "/campaigns", { token: a.adminToken, body });
    expect(created.status).toBe(200);
    await entryFor(a.adminToken, "create", "campaign", created.body.id);
    await t.call("PUT", `/campaigns/${created.body.id}`, { token: a.adminToken, body: { ...body, name: "Black Friday 2" } });
    expect((await entryFor(a.adminToken, "update", "campaign", created.body.id)).changes.name).toEqual({ from: "Black Friday", to: "Black Friday 2" });
    await t.call("DELETE", `/campaigns/${created.body.id}`, { token: a.adminToken });
    await entryFor(a.adminToken, "delete", "campaign", created.body.id);
  });

  it("tickets: transfer and delete; contacts and messages: delete", async () => {
    const tk = await customerTicket(a);
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "open" } });
    const moved = await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { queueId: a.queues[1]!.id, userId: a.user.id, status: "open" } });
    expect(moved.status).toBe(200);
    const transfer = await entryFor(a.adminToken, "transfer", "ticket", tk.id);
    expect(transfer.changes.queueId).toEqual({ from: a.queues[0]!.id, to: a.queues[1]!.id });
    expect(transfer.changes.userId).toEqual({ from: a.admin.id, to: a.user.id });

    const sent = await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "mensagem que some" } });
    expect(sent.status).toBe(201);
    expect((await t.call("DELETE", `/messages/${sent.body.id}`, { token: a.userToken })).status).toBe(200);
    await entryFor(a.adminToken, "delete", "message", sent.body.id);

    expect((await t.call("DELETE", `/tickets/${tk.id}`, { token: a.adminToken })).status).toBe(200);
    await entryFor(a.adminToken, "delete", "ticket", tk.id);

    expect((await t.call("DELETE", `/contacts/${tk.contact.id}`, { token: a.adminToken })).status).toBe(200);
    await entryFor(a.adminToken, "delete", "contact", tk.contact.id);
  });

  it("the operator's plans (platform records) and companies (under that company)", async () => {
    const plan = await t.call("POST", "/plans", { token: opToken, body: { name: `Plano ${Date.now()}`, users: 1, connections: 1, queues: 1, value: 10 } });
    expect(plan.status).toBe(201);
    const planEntry = await entryFor(opToken, "create", "plan", plan.body.id);
    expect(planEntry).toMatchObject({ companyId: null, actor: { userId: op.admin.id, super: true } });
    await t.call("DELETE", `/plans/${plan.body.id}`, { token: opToken });
    await entryFor(opToken, "delete", "plan", plan.body.id);

    const companyBody = { name: `Loja ${Date.now()}`, email: "loja@teste.com", phone: "", planId: a.plan.id, status: true, campaignsEnabled: false, dueDate: "2030-01-31", recurrence: "MENSAL" };
    const company = await t.call("POST", "/companies", { token: opToken, body: companyBody });
    expect(company.status).toBe(201);
    const created = await entryFor(opToken, "create", "company", company.body.id, { companyId: company.body.id });
    expect(created.companyId).toBe(company.body.id);
    expect((await t.call("PUT", `/companies/${company.body.id}`, { token: opToken, body: { ...companyBody, name: "Loja Renomeada" } })).status).toBe(200);
    expect((await entryFor(opToken, "update", "company", company.body.id)).changes.name?.to).toBe("Loja Renomeada");
    // plans are the operator's own: no company admin sees them
    expect((await logs(a.adminToken, { recordKind: "plan" })).length).toBe(0);
  });
});

describe("sign-ins", () => {
  it("records success and failure (known email under its company, unknown email for the operator only)", async () => {
    const c = await createTenant(t);
    await t.call("POST", "/auth/login", { body: { email: c.user.email, password: "errada" }, address: "203.0.113.9" });
    const failed = await entryFor(c.adminToken, "login_failed", "user", c.user.id);
    expect(failed).toMatchObject({ ip: "203.0.113.9", actor: { kind: "user", userId: c.user.id } });
    await c.login(c.user.email);
    await entryFor(c.adminToken, "login", "user", c.user.id);

    const ghost = `ninguem-${Date.now()}@x.com`;
    await t.call("POST", "/auth/login", { body: { email: ghost, password: "errada" }, address: "203.0.113.10" });
    const platform = (await logs(opToken, { action: "login_failed" })).find((e) => e.actor.kind === "anonymous" && e.actor.email === ghost);
    expect(platform).toMatchObject({ companyId: null, ip: "203.0.113.10" });
    expect(JSON.stringify(await logs(c.adminToken))).not.toContain(ghost);
  });
});

describe("nothing editable, nothing crosses tenants", () => {
  it("no route changes or deletes an entry", async () => {
    const [any] = await logs(a.adminToken);
    expect(any).toBeDefined();
    for (const [method, path] of [
      ["POST", "/audit-logs"],
      ["PUT", `/audit-logs/${any!.id}`],
      ["PATCH", `/audit-logs/${any!.id}`],
      ["DELETE", `/audit-logs/${any!.id}`],
      ["DELETE", "/audit-logs"],
    ] as const) {
      const res = await t.call(method, path, { token: opToken, body: method === "DELETE" ? undefined : { action: "login" } });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const again = await logs(a.adminToken);
    expect(again.find((e) => e.id === any!.id)).toEqual(any);
  });

  it("company B's admin never sees company A's entries, not even by asking for A; attendants see none", async () => {
    await t.call("PUT", "/settings/call", { token: b.adminToken, body: { value: "enabled" } });
    const own = await logs(b.adminToken);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((e) => e.companyId === b.company.id)).toBe(true);
    const asked = await logs(b.adminToken, { companyId: a.company.id });
    expect(asked.every((e) => e.companyId === b.company.id)).toBe(true);
    expect((await logs(b.adminToken, { userId: a.admin.id })).every((e) => e.companyId === b.company.id)).toBe(true);
    const csv = await t.call("GET", `/audit-logs/export?companyId=${a.company.id}`, { token: b.adminToken });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    const rows = String(csv.body).trim().split("\r\n").slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.split(",")[1] === `"${b.company.id}"`)).toBe(true);
    expect((await t.call("GET", "/audit-logs", { token: b.userToken })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await t.call("GET", "/audit-logs")).status).toBe(401);
  });

  it("the operator filters by company", async () => {
    const onlyB = await logs(opToken, { companyId: b.company.id });
    expect(onlyB.length).toBeGreaterThan(0);
    expect(onlyB.every((e) => e.companyId === b.company.id)).toBe(true);
  });

  it("bad filters are ERR_VALIDATION", async () => {
    for (const qs of ["action=hack", "recordKind=table", "from=yesterday", "from=2026-02-01&to=2026-01-01", "pageNumber=0"]) {
      expect((await t.call("GET", `/audit-logs?${qs}`, { token: a.adminToken })).body, qs).toMatchObject({ error: "ERR_VALIDATION" });
    }
  });
});
