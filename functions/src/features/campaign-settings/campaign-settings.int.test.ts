import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
});

const asObject = (records: { key: string; value: string }[]) => Object.fromEntries(records.map((r) => [r.key, JSON.parse(r.value)]));

describe("campaign settings", () => {
  it("starts with the spec's defaults", async () => {
    const res = await t.call("GET", "/campaign-settings", { token: a.adminToken });
    expect(res.status).toBe(200);
    expect(asObject(res.body)).toEqual({ messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] });
    expect(await t.container.services.campaignSettings.get(a.company.id)).toEqual({ messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] });
  });

  it("saves the intervals and variables for the company only", async () => {
    const saved = await t.call("POST", "/campaign-settings", {
      token: a.adminToken,
      body: { settings: { messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 120, variables: [{ key: "loja", value: "Loja Centro" }] } },
    });
    expect(saved.status).toBe(200);
    const read = asObject((await t.call("GET", "/campaign-settings", { token: a.adminToken })).body);
    expect(read).toEqual({ messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 120, variables: [{ key: "loja", value: "Loja Centro" }] });
    // a partial save keeps the other fields
    await t.call("POST", "/campaign-settings", { token: a.adminToken, body: { settings: { messageInterval: 0 } } });
    expect(await t.container.services.campaignSettings.get(a.company.id)).toMatchObject({ messageInterval: 0, greaterInterval: 120, variables: [{ key: "loja" }] });
    // company B still has the defaults
    expect(asObject((await t.call("GET", "/campaign-settings", { token: b.adminToken })).body)).toMatchObject({ messageInterval: 20, variables: [] });
  });

  it("refuses values outside the options and duplicate variable keys, changing nothing", async () => {
    const before = (await t.call("GET", "/campaign-settings", { token: a.adminToken })).body;
    for (const settings of [
      { messageInterval: 7 },
      { greaterInterval: 999 },
      { longerIntervalAfter: "muito" },
      { variables: [{ key: "x", value: "1" }, { key: "x", value: "2" }] },
      { variables: [{ key: "", value: "1" }] },
    ]) {
      const res = await t.call("POST", "/campaign-settings", { token: a.adminToken, body: { settings } });
      expect(res.status, JSON.stringify(settings)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    expect((await t.call("POST", "/campaign-settings", { token: a.adminToken, body: {} })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/campaign-settings", { token: a.adminToken })).body).toEqual(before);
  });

  it("is for admins on a plan with campaigns only", async () => {
    expect((await t.call("GET", "/campaign-settings", { token: a.userToken })).status).toBe(403);
    expect((await t.call("POST", "/campaign-settings", { token: a.userToken, body: { settings: { messageInterval: 5 } } })).status).toBe(403);
    const noCampaigns = await createTenant(t, { plan: { useCampaigns: false } });
    expect((await t.call("GET", "/campaign-settings", { token: noCampaigns.adminToken })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await t.call("POST", "/campaign-settings", { token: noCampaigns.adminToken, body: { settings: { messageInterval: 5 } } })).status).toBe(403);
    expect(await t.container.services.campaignSettings.get(noCampaigns.company.id)).toMatchObject({ messageInterval: 20 });
  });
});
