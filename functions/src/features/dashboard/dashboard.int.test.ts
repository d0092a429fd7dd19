import { beforeAll, describe, expect, it } from "vitest";
import { customerMessage, deliver } from "../../testing/inbox-fixtures";
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

describe("GET /dashboard", () => {
  it("counts a real attention cycle from the inbox: queued, accepted, finished", async () => {
    await deliver(t, customerMessage(a, { number: "5511970000001", body: "oi" }));
    await deliver(t, customerMessage(a, { number: "5511970000001", body: "1" }));
    const list = await t.call("GET", "/tickets?showAll=true&status=pending", { token: a.adminToken });
    const ticket = (list.body.tickets ?? []).find((x: { contact: { number: string } }) => x.contact.number === "5511970000001");
    expect(ticket).toBeTruthy();
    t.clock.advance(4 * 60_000);
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.userToken, body: { status: "open" } })).status).toBe(200);
    t.clock.advance(6 * 60_000);
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.userToken, body: { status: "closed" } })).status).toBe(200);

    const res = await t.call("GET", "/dashboard?days=3", { token: a.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.counters).toMatchObject({ supportFinished: 1, avgWaitTime: 4, avgSupportTime: 6 });
    expect(res.body.counters.totalCompanies).toBeUndefined();
    expect(res.body.attendants.find((x: { id: number }) => x.id === a.user.id)).toMatchObject({ name: "Atendente Teste", tickets: 1, avgSupportTime: 6 });
    const users = await t.call("GET", "/dashboard/ticketsUsers?days=3", { token: a.adminToken });
    expect(users.body).toEqual({ data: [{ nome: "Atendente Teste", quantidade: 1 }], count: 1 });
    const days = await t.call("GET", "/dashboard/ticketsDay?days=3", { token: a.adminToken });
    expect(days.body.count).toBe(1);
    expect(days.body.data).toHaveLength(3);

    // another company sees none of it (cross-tenant)
    const other = await t.call("GET", "/dashboard?days=3", { token: b.adminToken });
    expect(other.body.counters).toMatchObject({ supportFinished: 0, supportPending: 0, supportHappening: 0 });
    expect(other.body.attendants.map((x: { id: number; name: string }) => x.name)).not.toContain(undefined);
    expect((await t.call("GET", "/dashboard/ticketsUsers?days=3", { token: b.adminToken })).body.count).toBe(0);
  });

  it("needs a filter, a valid one, and an admin", async () => {
    expect((await t.call("GET", "/dashboard", { token: a.adminToken })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/dashboard?days=0", { token: a.adminToken })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/dashboard?days=91", { token: a.adminToken })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/dashboard?date_from=2026-13-01&date_to=2026-01-01", { token: a.adminToken })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/dashboard?days=7", { token: a.userToken })).status).toBe(403);
    expect((await t.call("GET", "/dashboard?days=7")).status).toBe(401);
  });
});
