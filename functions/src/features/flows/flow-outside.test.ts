import { describe, expect, it } from "vitest";
import { createBusinessHours, createFlowHttp } from "./flow-outside";

describe("flow outside calls (issue 30)", () => {
  it("inBusinessHours follows the company's schedules in its time zone; none set: the default week", async () => {
    const hours = [{ weekday: "segunda-feira", weekdayEn: "monday", startTime: "09:00", endTime: "17:00" }];
    const company = async () => ({ schedules: hours, timezone: "America/Sao_Paulo" });
    // Monday 2026-11-30: 12:00 in São Paulo is 15:00 UTC; 18:00 there is 21:00 UTC
    expect(await createBusinessHours(company, () => new Date("2026-11-30T15:00:00Z"))(1)()).toBe(true);
    expect(await createBusinessHours(company, () => new Date("2026-11-30T21:00:00Z"))(1)()).toBe(false);
    expect(await createBusinessHours(company, () => new Date("2026-12-01T15:00:00Z"))(1)()).toBe(false);
    // default week: Sunday closed, weekdays 08-18
    expect(await createBusinessHours(async () => null, () => new Date("2026-11-29T15:00:00Z"))(1)()).toBe(false);
    expect(await createBusinessHours(async () => null, () => new Date("2026-11-30T15:00:00Z"))(1)()).toBe(true);
  });

  it("the http node's call: JSON in and out, the node's time limit and a body cap passed to the guarded fetch", async () => {
    const seen: { url: string; init: Record<string, unknown> }[] = [];
    const http = createFlowHttp((async (url: string, init: Record<string, unknown>) => {
      seen.push({ url, init });
      return Response.json({ ok: 1 }, { status: 201 });
    }) as never);
    expect(await http({ method: "POST", url: "https://api.test/x", headers: { "x-k": "v" }, body: '{"a":1}', timeoutMs: 3000 })).toEqual({ status: 201, json: { ok: 1 } });
    expect(seen[0]!.init).toMatchObject({ method: "POST", body: '{"a":1}', timeoutMs: 3000, maxBodyBytes: 256 * 1024, headers: { "content-type": "application/json", "x-k": "v" } });
    const text = createFlowHttp((async () => new Response("plain")) as never);
    expect(await text({ method: "GET", url: "https://api.test/y", headers: {}, timeoutMs: 1000 })).toEqual({ status: 200, json: "plain" });
  });
});
