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

const reason = async (tenant: Tenant, name: string) => (await t.call("POST", "/pause-reasons", { token: tenant.adminToken, body: { name } })).body as { id: number; name: string };

describe("agent status (issue 13 item 1)", () => {
  it("an attendant goes online, pauses with a reason, and every change is recorded with its time", async () => {
    const lunch = await reason(a, "Almoço");
    const me0 = await t.call("GET", "/agents/me", { token: a.userToken });
    expect(me0.body).toMatchObject({ userId: a.user.id, status: "offline", since: null, openTickets: 0, capacity: 5, ownCapacity: null });

    const on = await t.call("PUT", "/agents/me/status", { token: a.userToken, body: { status: "online" } });
    expect(on.body).toMatchObject({ status: "online", since: t.clock.now.toISOString() });
    t.clock.advance(60_000);
    const paused = await t.call("PUT", "/agents/me/status", { token: a.userToken, body: { status: "paused", pauseReasonId: lunch.id } });
    expect(paused.body).toMatchObject({ status: "paused", pauseReasonId: lunch.id, pauseReason: "Almoço", since: t.clock.now.toISOString() });

    const history = await t.call("GET", `/agents/${a.user.id}/history`, { token: a.userToken });
    expect(history.body.map((h: { status: string }) => h.status)).toEqual(["paused", "online"]);
    expect(history.body[0]).toMatchObject({ pauseReason: "Almoço", by: a.user.id });
    expect(new Date(history.body[0].at).getTime() - new Date(history.body[1].at).getTime()).toBe(60_000);
  });

  it("a pause needs one of the company's reasons; bad input changes nothing", async () => {
    await t.call("PUT", "/agents/me/status", { token: a.userToken, body: { status: "online" } });
    const none = await t.call("PUT", "/agents/me/status", { token: a.userToken, body: { status: "paused" } });
    expect(none).toMatchObject({ status: 400, body: { error: "ERR_PAUSE_REASON_REQUIRED" } });
    const unknown = await t.call("PUT", "/agents/me/status", { token: a.userToken, body: { status: "paused", pauseReasonId: 999_999 } });
    expect(unknown).toMatchObject({ status: 404, body: { error: "ERR_NO_PAUSE_REASON_FOUND" } });
    const bad = await t.call("PUT", "/agents/me/status", { token: a.userToken, body: { status: "away" } });
    expect(bad.body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/agents/me", { token: a.userToken })).body.status).toBe("online");
  });

  it("admins see every attendant with status, open tickets, capacity and since when; attendants may not", async () => {
    await t.call("PUT", "/agents/me/status", { token: a.userToken, body: { status: "online" } });
    const list = await t.call("GET", "/agents", { token: a.adminToken });
    expect(list.status).toBe(200);
    expect(list.body.map((x: { userId: number }) => x.userId).sort()).toEqual([a.admin.id, a.user.id].sort());
    expect(list.body.find((x: { userId: number }) => x.userId === a.user.id)).toMatchObject({ status: "online", openTickets: 0, capacity: 5 });
    expect((await t.call("GET", "/agents", { token: a.userToken })).status).toBe(403);
    expect((await t.call("PUT", `/agents/${a.user.id}`, { token: a.userToken, body: { capacity: 9 } })).status).toBe(403);
    expect((await t.call("GET", `/agents/${a.admin.id}/history`, { token: a.userToken })).status).toBe(403);
  });

  it("capacity: the company's default (a setting) unless the user has their own", async () => {
    expect((await t.call("PUT", "/settings/defaultCapacity", { token: a.adminToken, body: { value: "3" } })).status).toBe(200);
    expect((await t.call("GET", "/agents/me", { token: a.userToken })).body).toMatchObject({ capacity: 3, ownCapacity: null });
    const own = await t.call("PUT", `/agents/${a.user.id}`, { token: a.adminToken, body: { capacity: 7 } });
    expect(own.body).toMatchObject({ capacity: 7, ownCapacity: 7 });
    expect((await t.call("PUT", `/agents/${a.user.id}`, { token: a.adminToken, body: { capacity: 0 } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("PUT", "/settings/defaultCapacity", { token: a.adminToken, body: { value: "0" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("PUT", `/agents/${a.user.id}`, { token: a.adminToken, body: { capacity: null } })).body).toMatchObject({ capacity: 3, ownCapacity: null });
  });

  it("pause reasons: admins edit the list, everyone reads it", async () => {
    const r = await reason(a, "Reunião");
    expect((await t.call("GET", "/pause-reasons", { token: a.userToken })).body.map((x: { name: string }) => x.name)).toContain("Reunião");
    expect((await t.call("POST", "/pause-reasons", { token: a.userToken, body: { name: "Café" } })).status).toBe(403);
    expect((await t.call("POST", "/pause-reasons", { token: a.adminToken, body: { name: " " } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("PUT", `/pause-reasons/${r.id}`, { token: a.adminToken, body: { name: "Treinamento" } })).body).toMatchObject({ id: r.id, name: "Treinamento" });
    expect((await t.call("DELETE", `/pause-reasons/${r.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("DELETE", `/pause-reasons/${r.id}`, { token: a.adminToken })).body.error).toBe("ERR_NO_PAUSE_REASON_FOUND");
  });

  it("cross-tenant: company B's admin reads and changes nothing of company A", async () => {
    const r = await reason(a, "Treinamento A");
    await t.call("PUT", `/agents/${a.user.id}`, { token: a.adminToken, body: { capacity: 4 } });
    expect((await t.call("GET", "/agents", { token: b.adminToken })).body.map((x: { userId: number }) => x.userId).sort()).toEqual([b.admin.id, b.user.id].sort());
    // ids are per company: B naming A's user id reaches B's own user of that number, never A's
    await t.call("PUT", `/agents/${a.user.id}`, { token: b.adminToken, body: { capacity: 9 } });
    expect((await t.call("PUT", "/agents/999999", { token: b.adminToken, body: { capacity: 9 } })).body.error).toBe("ERR_NO_USER_FOUND");
    const bHistory = await t.call("GET", `/agents/${a.user.id}/history`, { token: b.adminToken });
    expect(bHistory.body.every((h: { status: string }) => h.status !== "paused")).toBe(true);
    expect((await t.call("PUT", "/agents/me/status", { token: b.userToken, body: { status: "paused", pauseReasonId: r.id } })).body.error).toBe("ERR_NO_PAUSE_REASON_FOUND");
    expect((await t.call("PUT", `/pause-reasons/${r.id}`, { token: b.adminToken, body: { name: "x" } })).body.error).toBe("ERR_NO_PAUSE_REASON_FOUND");
    expect((await t.call("DELETE", `/pause-reasons/${r.id}`, { token: b.adminToken })).body.error).toBe("ERR_NO_PAUSE_REASON_FOUND");
    expect((await t.call("GET", "/pause-reasons", { token: b.adminToken })).body.map((x: { id: number }) => x.id)).not.toContain(r.id);
    expect((await t.call("GET", `/agents/${a.user.id}/history`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", "/agents/me", { token: a.userToken })).body.ownCapacity).toBe(4);
    expect((await t.call("GET", "/pause-reasons", { token: a.adminToken })).body.find((x: { id: number }) => x.id === r.id).name).toBe("Treinamento A");
    expect((await t.call("GET", "/agents")).status).toBe(401);
  });
  it("a status change is published on company-{id}-user; signing out sets offline", async () => {
    const session = await a.login(a.user.email);
    expect((await t.container.services.sockets.connect("ag-1", session.token)).statusCode).toBe(200);
    const mark = t.sender.frames.length;
    await t.call("PUT", "/agents/me/status", { token: session.token, body: { status: "offline" } });
    await t.call("PUT", "/agents/me/status", { token: session.token, body: { status: "online" } });
    const frames = t.sender.frames.slice(mark).map((f) => f.frame as { channel: string; data: { action: string; agent: { userId: number; status: string } } });
    expect(frames.filter((f) => f.channel === `company-${a.company.id}-user` && f.data.action === "status").map((f) => [f.data.agent.userId, f.data.agent.status])).toEqual([
      [a.user.id, "offline"],
      [a.user.id, "online"],
    ]);
    const out = await t.call("DELETE", "/auth/logout", { token: session.token, cookie: session.cookie });
    expect(out.status, JSON.stringify(out.body)).toBeLessThan(300);
    expect((await t.container.repos.agents.get(a.company.id, a.user.id)).status).toBe("offline");
  });

});
