import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

/** Logout, a password change and a deletion end the user's sessions at once; profile and queue edits do not. */
let t: TestApp;
let a: Tenant;
let other: Tenant;
beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  other = await createTenant(t);
});

type Session = { token: string; cookie: string };
const works = async (s: Session) => ({
  token: (await t.call("GET", "/auth/me", { token: s.token })).status,
  refresh: (await t.call("POST", "/auth/refresh_token", { cookie: s.cookie })).status,
});
/** Only checks the access token (a refresh would rotate the cookie). */
const tokenWorks = async (s: Session) => (await t.call("GET", "/auth/me", { token: s.token })).status === 200;

describe("sessions end at once", () => {
  it("logout revokes the access token just used, not 15 minutes later, and the refresh cookie", async () => {
    const c = await createTenant(t);
    const s = await c.login(c.user.email);
    expect(await tokenWorks(s)).toBe(true);
    expect((await t.call("DELETE", "/auth/logout", { token: s.token })).status).toBe(204);
    expect(await t.call("GET", "/auth/me", { token: s.token })).toMatchObject({ status: 401, body: { error: "ERR_SESSION_EXPIRED" } });
    expect((await t.call("GET", "/tickets", { token: s.token })).status).toBe(401);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: s.cookie })).status).toBe(401);
    // a fresh login works
    expect(await tokenWorks(await c.login(c.user.email))).toBe(true);
  });

  it("a user changing their own password ends their sessions (old token and old cookie refused)", async () => {
    const c = await createTenant(t);
    const s = await c.login(c.user.email);
    const res = await t.call("PUT", `/users/${c.user.id}`, { token: s.token, body: { name: "Atendente", password: "NovaSenha99" } });
    expect(res.status).toBe(200);
    expect(await works(s)).toEqual({ token: 401, refresh: 401 });
    const relog = await t.call("POST", "/auth/login", { body: { email: c.user.email, password: "NovaSenha99" } });
    expect(relog.status).toBe(200);
    expect(await tokenWorks({ token: relog.body.token, cookie: "" })).toBe(true);
  });

  it("an admin changing a user's password ends that user's sessions, not the admin's", async () => {
    const c = await createTenant(t);
    const user = await c.login(c.user.email);
    const admin = await c.login(c.admin.email);
    expect((await t.call("PUT", `/users/${c.user.id}`, { token: admin.token, body: { password: "TrocadaPeloAdmin1" } })).status).toBe(200);
    expect(await works(user)).toEqual({ token: 401, refresh: 401 });
    expect(await tokenWorks(admin)).toBe(true);
  });

  it("an empty password in the form keeps the password and the sessions", async () => {
    const c = await createTenant(t);
    const user = await c.login(c.user.email);
    const admin = await c.login(c.admin.email);
    expect((await t.call("PUT", `/users/${c.user.id}`, { token: admin.token, body: { name: "Outro Nome", password: "" } })).status).toBe(200);
    expect(await tokenWorks(user)).toBe(true);
  });

  it("deleting a user ends their sessions: old token and old cookie refused", async () => {
    const c = await createTenant(t);
    const user = await c.login(c.user.email);
    const admin = await c.login(c.admin.email);
    expect((await t.call("DELETE", `/users/${c.user.id}`, { token: admin.token })).status).toBe(200);
    expect(await works(user)).toEqual({ token: 401, refresh: 401 });
  });

  it("a profile change or a queue change signs nobody out", async () => {
    const c = await createTenant(t);
    const user = await c.login(c.user.email);
    const admin = await c.login(c.admin.email);
    const q = c.queues[1]!;
    expect((await t.call("PUT", `/users/${c.user.id}`, { token: admin.token, body: { name: "Promovido", profile: "admin", queueIds: [q.id] } })).status).toBe(200);
    expect((await t.call("PUT", `/queue/${q.id}`, { token: admin.token, body: { name: "Suporte 2" } })).status).toBe(200);
    expect(await t.call("GET", "/auth/me", { token: user.token })).toMatchObject({ status: 200, body: { profile: "admin", name: "Promovido" } });
    expect((await t.call("POST", "/auth/refresh_token", { cookie: user.cookie })).status).toBe(200);
    expect(await tokenWorks(admin)).toBe(true);
  });

  it("another company's admin cannot change a user's password to end their session (cross-tenant)", async () => {
    const victim = await a.login(a.user.email);
    // user ids are numbered per company: the same id names the other company's own user (or nobody) there
    await t.call("PUT", `/users/${a.user.id}`, { token: other.adminToken, body: { password: "Invasor123" } });
    expect(await tokenWorks(victim)).toBe(true);
    expect((await t.call("POST", "/auth/login", { body: { email: a.user.email, password: "Invasor123" } })).status).toBe(401);
  });
});
