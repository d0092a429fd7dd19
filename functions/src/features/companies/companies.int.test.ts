import { beforeAll, describe, expect, it } from "vitest";
import { makeOperator } from "../../testing/operator";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let op: Tenant;
let opToken: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  op = await createTenant(t);
  opToken = await makeOperator(t, op);
});

const company = (over: Record<string, unknown> = {}) => ({
  name: `Loja ${Math.random().toString(36).slice(2, 8)}`,
  email: "loja@teste.com",
  phone: "11999990000",
  planId: a.plan.id,
  status: true,
  campaignsEnabled: false,
  dueDate: "2030-01-31",
  recurrence: "MENSAL",
  ...over,
});

describe("operator's companies", () => {
  it("creates, reads, lists, updates and deletes a company", async () => {
    const created = await t.call("POST", "/companies", { token: opToken, body: company({ name: "Loja Central" }) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Loja Central", plan: { id: a.plan.id, name: "Teste" }, campaignsEnabled: false, recurrence: "MENSAL" });
    expect(created.body.dueDate.slice(0, 10)).toBe("2030-01-31");
    const id = created.body.id;
    const settings = await t.container.repos.settings.list(id);
    expect(settings.find((s) => s.key === "campaignsEnabled")?.value).toBe("false");
    expect(settings.find((s) => s.key === "userRating")?.value).toBe("disabled");

    const list = await t.call("GET", "/companies/list", { token: opToken });
    expect(list.body.map((c: { id: number }) => c.id)).toContain(id);
    const page = await t.call("GET", "/companies?searchParam=central&pageNumber=1", { token: opToken });
    expect(page.body).toMatchObject({ count: 1, hasMore: false });
    expect(page.body.companies[0].id).toBe(id);

    const updated = await t.call("PUT", `/companies/${id}`, { token: opToken, body: company({ name: "Loja Central 2", dueDate: "", campaignsEnabled: true }) });
    expect(updated.body).toMatchObject({ name: "Loja Central 2", dueDate: null, campaignsEnabled: true });
    expect((await t.call("GET", `/companies/${id}`, { token: opToken })).body.name).toBe("Loja Central 2");

    const del = await t.call("DELETE", `/companies/${id}`, { token: opToken });
    expect(del.status).toBe(200);
    expect((await t.call("GET", `/companies/${id}`, { token: opToken })).status).toBe(404);
  });

  it("deleting a company removes its people: their logins stop and emails are free", async () => {
    const c = await createTenant(t);
    await t.call("DELETE", `/companies/${c.company.id}`, { token: opToken });
    expect((await t.call("GET", "/auth/me", { token: c.adminToken })).status).toBe(401);
    expect(await t.container.repos.users.findByEmail(c.admin.email)).toBeNull();
  });

  it("the operator cannot delete their own company", async () => {
    expect((await t.call("DELETE", `/companies/${op.company.id}`, { token: opToken })).status).toBe(403);
  });

  it("rejects bad input (no email, no plan, unknown plan) and stores nothing", async () => {
    const before = (await t.call("GET", "/companies/list", { token: opToken })).body.length;
    for (const body of [company({ email: "" }), company({ planId: undefined }), company({ planId: 9999 }), company({ recurrence: "SEMANAL" })]) {
      const res = await t.call("POST", "/companies", { token: opToken, body });
      expect(res).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
    expect((await t.call("GET", "/companies/list", { token: opToken })).body.length).toBe(before);
  });

  it("company admins reach none of the operator's calls, nor another company's record", async () => {
    const tok = a.adminToken;
    expect((await t.call("GET", "/companies", { token: tok })).status).toBe(403);
    expect((await t.call("GET", "/companies/list", { token: tok })).status).toBe(403);
    expect((await t.call("POST", "/companies", { token: tok, body: company() })).status).toBe(403);
    expect((await t.call("PUT", `/companies/${a.company.id}`, { token: tok, body: company() })).status).toBe(403);
    expect((await t.call("DELETE", `/companies/${op.company.id}`, { token: tok })).status).toBe(403);
    expect((await t.call("GET", `/companies/${op.company.id}`, { token: tok })).status).toBe(403);
    expect((await t.call("GET", `/companies/${a.company.id}`, { token: tok })).body.id).toBe(a.company.id);
    expect((await t.call("GET", `/companies/${op.company.id}`, { token: opToken })).status).toBe(200);
  });

  it("the operator manages another company's users (the 'Usuário' button)", async () => {
    const res = await t.call("POST", "/users", { token: opToken, body: { name: "Dono", email: `dono-${Date.now()}@x.com`, password: "12345", companyId: a.company.id, profile: "admin" } });
    expect(res.status).toBe(201);
    expect(res.body.companyId).toBe(a.company.id);
    const list = await t.call("GET", `/users/list?companyId=${a.company.id}`, { token: opToken });
    expect(list.body.map((u: { id: number }) => u.id)).toContain(res.body.id);
  });
});

describe("plans", () => {
  const plan = (over: Record<string, unknown> = {}) => ({
    name: `Plano ${Math.random().toString(36).slice(2, 7)}`,
    users: 5,
    connections: 2,
    queues: 4,
    value: 149.9,
    useCampaigns: false,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: false,
    useKanban: true,
    useOpenAi: false,
    useIntegrations: true,
    useInternal: true,
    ...over,
  });

  it("the operator creates, reads, updates and deletes a plan with every flag", async () => {
    const created = await t.call("POST", "/plans", { token: opToken, body: plan({ name: "Prata" }) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Prata", users: 5, value: 149.9, useCampaigns: false, useOpenAi: false });
    const id = created.body.id;
    expect((await t.call("GET", `/plans/${id}`, { token: opToken })).body.name).toBe("Prata");
    const updated = await t.call("PUT", `/plans/${id}`, { token: opToken, body: plan({ name: "Prata+", useCampaigns: true }) });
    expect(updated.body).toMatchObject({ name: "Prata+", useCampaigns: true });
    expect((await t.call("GET", "/plans/all", { token: a.adminToken })).body.map((p: { id: number }) => p.id)).toContain(id);
    expect((await t.call("DELETE", `/plans/${id}`, { token: opToken })).status).toBe(200);
    expect((await t.call("GET", `/plans/${id}`, { token: opToken })).status).toBe(404);
  });

  it("lists plans publicly for the sign-up, without internal fields", async () => {
    const res = await t.call("GET", "/plans/list");
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(Object.keys(res.body[0]).sort()).toEqual(["connections", "id", "name", "queues", "users", "value"]);
    expect((await t.call("GET", "/plans/register")).status).toBe(200);
  });

  it("refuses deleting a plan a company is on, duplicate names and bad input", async () => {
    expect((await t.call("DELETE", `/plans/${a.plan.id}`, { token: opToken })).status).toBe(400);
    expect((await t.call("GET", `/plans/${a.plan.id}`, { token: opToken })).status).toBe(200);
    const first = await t.call("POST", "/plans", { token: opToken, body: plan({ name: "Ouro" }) });
    expect(first.status).toBe(201);
    expect((await t.call("POST", "/plans", { token: opToken, body: plan({ name: "ouro" }) })).body.error).toBe("ERR_DUPLICATED_NAME");
    expect((await t.call("POST", "/plans", { token: opToken, body: plan({ users: -1 }) })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/plans", { token: opToken, body: plan({ name: "" }) })).body.error).toBe("ERR_VALIDATION");
  });

  it("company admins cannot change plans", async () => {
    expect((await t.call("POST", "/plans", { token: a.adminToken, body: plan() })).status).toBe(403);
    expect((await t.call("PUT", `/plans/${a.plan.id}`, { token: a.adminToken, body: plan({ users: 999 }) })).status).toBe(403);
    expect((await t.call("DELETE", `/plans/${a.plan.id}`, { token: a.adminToken })).status).toBe(403);
    expect((await t.call("GET", `/plans/${a.plan.id}`, { token: a.adminToken })).body.users).toBe(10);
  });

  it("a plan without a flag: the server refuses that feature (requirePlan)", async () => {
    const c = await createTenant(t, { plan: { useIntegrations: false } });
    const res = await t.call("PUT", `/queue/${c.queues[0]!.id}`, { token: c.adminToken, body: { integrationId: 1 } });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });
});
