import { beforeAll, describe, expect, it } from "vitest";
import { COMPANY_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { makeOperator } from "../../testing/operator";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
let op: Tenant;
let opToken: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
  op = await createTenant(t);
  opToken = await makeOperator(t, op);
});

const valueOf = (list: { key: string; value: string }[], key: string) => list.find((s) => s.key === key)?.value;

describe("GET /settings/", () => {
  it("gives every company key to any user of the company, and no global key", async () => {
    const res = await t.call("GET", "/settings/", { token: a.userToken });
    expect(res.status).toBe(200);
    expect(res.body.map((s: { key: string }) => s.key).sort()).toEqual(Object.keys(COMPANY_SETTING_DEFAULTS).sort());
    expect(valueOf(res.body, "allowregister")).toBeUndefined();
  });
  it("gives the operator the global keys too", async () => {
    const res = await t.call("GET", "/settings", { token: opToken });
    expect(valueOf(res.body, "allowregister")).toBe("enabled");
    expect(valueOf(res.body, "trial")).toBe("3");
    expect(valueOf(res.body, "asaas")).toBe("");
  });
});

describe("PUT /settings/{key}", () => {
  it("an admin saves a company key; only that company sees it; the company hears it live", async () => {
    await t.container.services.sockets.connect("a-user-sock", a.userToken);
    const before = t.sender.frames.length;
    const res = await t.call("PUT", "/settings/scheduleType", { token: a.adminToken, body: { key: "scheduleType", value: "queue" } });
    expect(res).toMatchObject({ status: 200, body: { key: "scheduleType", value: "queue" } });
    expect(valueOf((await t.call("GET", "/settings", { token: a.userToken })).body, "scheduleType")).toBe("queue");
    expect(valueOf((await t.call("GET", "/settings", { token: b.userToken })).body, "scheduleType")).toBe("disabled");
    expect(t.sender.frames.slice(before).some((f) => f.connectionId === "a-user-sock" && (f.frame as { channel: string }).channel === `company-${a.company.id}-setting`)).toBe(true);
  });
  it("refuses an attendant", async () => {
    const res = await t.call("PUT", "/settings/userRating", { token: a.userToken, body: { value: "enabled" } });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });
  it("refuses values a key does not take, and unknown keys, storing nothing", async () => {
    expect((await t.call("PUT", "/settings/scheduleType", { token: a.adminToken, body: { value: "always" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("PUT", "/settings/nope", { token: a.adminToken, body: { value: "x" } })).body.error).toBe("ERR_NO_SETTING_FOUND");
    expect((await t.call("PUT", "/settings/call", { token: a.adminToken, rawBody: "{", headers: { "content-type": "application/json" } })).body.error).toBe("ERR_VALIDATION");
    expect(valueOf((await t.call("GET", "/settings", { token: a.adminToken })).body, "scheduleType")).toBe("queue");
  });
  it("global keys: the operator only; a company admin gets ERR_NO_PERMISSION (cross-tenant)", async () => {
    expect((await t.call("PUT", "/settings/allowregister", { token: a.adminToken, body: { value: "disabled" } })).status).toBe(403);
    expect((await t.call("PUT", "/settings/campaignsEnabled", { token: a.adminToken, body: { value: "false" } })).status).toBe(403);
    expect((await t.call("PUT", "/settings/trial", { token: opToken, body: { value: "9" } })).body.error).toBe("ERR_VALIDATION");
    const ok = await t.call("PUT", "/settings/trial", { token: opToken, body: { value: "7" } });
    expect(ok.body).toEqual({ key: "trial", value: "7" });
    expect((await t.call("GET", "/public/settings")).body.trial).toBe("7");
    await t.call("PUT", "/settings/trial", { token: opToken, body: { value: "3" } });
  });
});

describe("PUT /companies/{id}/schedules", () => {
  const schedules = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "07:00", endTime: "17:00" }];
  it("an admin sets the company's hours; they read back", async () => {
    const res = await t.call("PUT", `/companies/${a.company.id}/schedules`, { token: a.adminToken, body: { schedules } });
    expect(res.status).toBe(200);
    expect((await t.call("GET", `/companies/${a.company.id}`, { token: a.adminToken })).body.schedules).toEqual(schedules);
  });
  it("refuses another company's id, an attendant and bad times", async () => {
    expect((await t.call("PUT", `/companies/${a.company.id}/schedules`, { token: b.adminToken, body: { schedules: [] } })).status).toBe(403);
    expect((await t.call("PUT", `/companies/${a.company.id}/schedules`, { token: a.userToken, body: { schedules } })).status).toBe(403);
    const bad = await t.call("PUT", `/companies/${a.company.id}/schedules`, { token: a.adminToken, body: { schedules: [{ ...schedules[0], endTime: "1700" }] } });
    expect(bad.body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", `/companies/${a.company.id}`, { token: a.adminToken })).body.schedules).toEqual(schedules);
  });
});
