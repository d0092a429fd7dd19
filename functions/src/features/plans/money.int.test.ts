import { beforeAll, describe, expect, it } from "vitest";
import { makeOperator } from "../../testing/operator";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

/** Money fields take R$ 0 to 1,000,000.00 with at most two decimals; anything else is ERR_VALIDATION and stores nothing. */
let t: TestApp;
let op: Tenant;
let opToken: string;
beforeAll(async () => {
  t = await createTestApp();
  op = await createTenant(t);
  opToken = await makeOperator(t, op);
});

const plan = (value: unknown) => ({ name: `Plano ${Math.random().toString(36).slice(2, 8)}`, users: 1, connections: 1, queues: 1, value });
const rawPlan = (valueLiteral: string) => `{"name":"Plano ${Math.random().toString(36).slice(2, 8)}","users":1,"connections":1,"queues":1,"value":${valueLiteral}}`;
const countPlans = async () => (await t.call("GET", "/plans", { token: opToken })).body.length as number;
const JSON_TYPE = { "content-type": "application/json" };

describe("plan value (POST/PUT /plans)", () => {
  it("refuses 2^53 and beyond, infinity, negatives, over a million and a third decimal, storing nothing", async () => {
    const before = await countPlans();
    for (const bad of [2 ** 53, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, -1, 1_000_000.01, 10.005, 0.1 + 0.2, "abc", "1e400"]) {
      const res = await t.call("POST", "/plans", { token: opToken, body: plan(bad) });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    for (const literal of ["9007199254740993", "1e400", "-0.01"]) {
      const res = await t.call("POST", "/plans", { token: opToken, rawBody: rawPlan(literal), headers: JSON_TYPE });
      expect(res, literal).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
    expect(await countPlans()).toBe(before);
  });

  it("accepts 0, cents, text with a dot, and exactly R$ 1,000,000.00", async () => {
    for (const [sent, stored] of [[0, 0], [49.9, 49.9], ["149.99", 149.99], [1_000_000, 1_000_000], [0.01, 0.01]] as const) {
      const res = await t.call("POST", "/plans", { token: opToken, body: plan(sent) });
      expect(res.status, String(sent)).toBe(201);
      expect(res.body.value).toBe(stored);
    }
  });

  it("PUT refuses an out-of-range value and keeps the stored one", async () => {
    const created = await t.call("POST", "/plans", { token: opToken, body: plan(99.9) });
    const res = await t.call("PUT", `/plans/${created.body.id}`, { token: opToken, body: plan(2 ** 53) });
    expect(res).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect((await t.call("GET", `/plans/${created.body.id}`, { token: opToken })).body.value).toBe(99.9);
  });

  it("plan counts are bounded too (no 500 on huge numbers)", async () => {
    const res = await t.call("POST", "/plans", { token: opToken, body: { ...plan(10), users: 2 ** 53 } });
    expect(res).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
  });
});

describe("subscription prices (POST /subscription)", () => {
  it("a price out of range is ERR_VALIDATION, not a 500", async () => {
    const tenant = await createTenant(t);
    for (const body of [{ invoiceId: 1, price: 2 ** 53 }, { invoiceId: 1, plan: { users: 1, connections: 1, price: 1e21 } }, { invoiceId: 1, price: 12.345 }]) {
      const res = await t.call("POST", "/subscription", { token: tenant.adminToken, body });
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
  });
});
