import { beforeAll, describe, expect, it } from "vitest";
import { makeOperator } from "../../testing/operator";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let op: Tenant;
let opToken: string;

beforeAll(async () => {
  t = await createTestApp();
  op = await createTenant(t);
  opToken = await makeOperator(t, op);
});

let address = 0;
const signup = (over: Record<string, unknown> = {}, ip = `7.7.${Math.floor(++address / 200)}.${address % 200}`) =>
  t.call("POST", "/companies/cadastro", {
    address: ip,
    body: { name: "Padaria Pão Quente", email: `pao-${Math.random().toString(36).slice(2, 8)}@teste.com`, phone: "(11) 98888-7777", password: "segredo1", planId: op.plan.id, ...over },
  });

describe("POST /companies/cadastro (public sign-up)", () => {
  it("creates a trial company due in the configured days, with its admin, who can log in", async () => {
    await t.call("PUT", "/settings/trial", { token: opToken, body: { value: "5" } });
    const email = `dono-${Date.now()}@padaria.com`;
    const res = await signup({ email });
    expect(res.status).toBe(201);
    const company = await t.container.repos.companies.findById(res.body.id);
    expect(company).toMatchObject({ name: "Padaria Pão Quente", recurrence: "MENSAL", status: true, phone: "11988887777", planId: op.plan.id });
    const days = (new Date(company!.dueDate!).getTime() - t.clock.now.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(5, 3);
    expect(company!.trialExpiration).toBe(company!.dueDate);
    const settings = await t.container.repos.settings.list(res.body.id);
    expect(settings.find((s) => s.key === "campaignsEnabled")?.value).toBe("true");
    expect(settings.find((s) => s.key === "scheduleType")?.value).toBe("disabled");
    const login = await t.call("POST", "/auth/login", { body: { email, password: "segredo1" } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ profile: "admin", super: false, companyId: res.body.id });
    await t.call("PUT", "/settings/trial", { token: opToken, body: { value: "3" } });
  });

  it("refuses an email already registered, creating no company", async () => {
    const before = (await t.call("GET", "/companies/list", { token: opToken })).body.length;
    const res = await signup({ email: op.user.email });
    expect(res).toMatchObject({ status: 409, body: { error: "ERR_EMAIL_ALREADY_EXISTS" } });
    expect((await t.call("GET", "/companies/list", { token: opToken })).body.length).toBe(before);
  });

  it("rejects bad input: phone, email, short password, missing or unknown plan", async () => {
    const before = (await t.call("GET", "/companies/list", { token: opToken })).body.length;
    for (const over of [{ phone: "123" }, { phone: "(11) 98888-77770" }, { email: "x" }, { password: "123" }, { planId: undefined }, { planId: 9999 }, { name: "" }]) {
      expect((await signup(over)).body.error).toBe("ERR_VALIDATION");
    }
    expect((await t.call("GET", "/companies/list", { token: opToken })).body.length).toBe(before);
  });

  it("stops a flood of sign-ups from one address", async () => {
    const results = [];
    for (let i = 0; i < 11; i++) results.push((await signup({}, "8.8.8.8")).status);
    expect(results.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(results[10]).toBe(429);
  });

  it("30 sign-ups at once from one address: exactly 10 pass, the rest wait with Retry-After (docs/adr/0064)", async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => signup({}, "8.8.4.4")));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(20);
    expect(refused[0]!.body).toMatchObject({ error: "ERR_TOO_MANY_ATTEMPTS" });
    expect(Number(refused[0]!.headers.get("retry-after"))).toBeGreaterThan(3000);
  });

  it("is refused while the operator disabled sign-up", async () => {
    await t.call("PUT", "/settings/allowregister", { token: opToken, body: { value: "disabled" } });
    expect(await signup()).toMatchObject({ status: 403, body: { error: "ERR_SIGNUP_DISABLED" } });
    await t.call("PUT", "/settings/allowregister", { token: opToken, body: { value: "enabled" } });
    expect((await signup()).status).toBe(201);
  });
});
