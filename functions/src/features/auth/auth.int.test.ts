import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { CONNECT_WINDOW_MS } from "../realtime/realtime.service";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "3" });
  a = await createTenant(t);
  b = await createTenant(t);
});

const cookieOf = (res: { headers: Headers }) => (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

describe("POST /auth/login", () => {
  it("returns a token and the user with the company, and sets an httpOnly refresh cookie", async () => {
    const res = await t.call("POST", "/auth/login", { body: { email: a.admin.email.toUpperCase(), password: a.password } });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe("string");
    expect(res.body.user).toMatchObject({ id: a.admin.id, email: a.admin.email, profile: "admin", companyId: a.company.id });
    expect(res.body.user.company).toMatchObject({ id: a.company.id, name: a.company.name });
    expect(res.body.user.passwordHash).toBeUndefined();
    expect(res.body.user.queues.map((q: { id: number }) => q.id)).toEqual(a.queues.map((q) => q.id));
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/jrt=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
  });

  it("answers ERR_INVALID_CREDENTIALS alike for a wrong password and an unknown email", async () => {
    const wrong = await t.call("POST", "/auth/login", { body: { email: a.user.email, password: "nope" }, address: "1.1.1.1" });
    const unknown = await t.call("POST", "/auth/login", { body: { email: "ninguem@teste.com", password: "nope" }, address: "1.1.1.2" });
    expect(wrong).toMatchObject({ status: 401, body: { error: "ERR_INVALID_CREDENTIALS" } });
    expect(unknown).toMatchObject({ status: 401, body: { error: "ERR_INVALID_CREDENTIALS" } });
  });

  it("rejects a malformed body with ERR_VALIDATION", async () => {
    const res = await t.call("POST", "/auth/login", { body: { email: "not-an-email" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("ERR_VALIDATION");
    const raw = await t.call("POST", "/auth/login", { rawBody: "{oops", headers: { "content-type": "application/json" } });
    expect(raw).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
  });

  it("slows down repeated failures for one email, even with the right password afterwards", async () => {
    const c = await createTenant(t);
    for (let i = 0; i < 3; i++) {
      await t.call("POST", "/auth/login", { body: { email: c.user.email, password: "bad" }, address: `2.2.2.${i}` });
    }
    const blocked = await t.call("POST", "/auth/login", { body: { email: c.user.email, password: c.password }, address: "2.2.2.9" });
    expect(blocked).toMatchObject({ status: 429, body: { error: "ERR_TOO_MANY_ATTEMPTS" } });
    t.clock.advance(16 * 60_000);
    const later = await t.call("POST", "/auth/login", { body: { email: c.user.email, password: c.password }, address: "2.2.2.9" });
    expect(later.status).toBe(200);
  });

  it("slows down repeated failures from one address across emails", async () => {
    for (let i = 0; i < 3; i++) {
      await t.call("POST", "/auth/login", { body: { email: `x${i}@teste.com`, password: "bad" }, address: "3.3.3.3" });
    }
    const blocked = await t.call("POST", "/auth/login", { body: { email: b.admin.email, password: b.password }, address: "3.3.3.3" });
    expect(blocked.status).toBe(429);
  });

  it("refuses login after the company's due date, carrying the date", async () => {
    const expired = await createTenant(t, { dueDate: new Date(t.clock.now.getTime() - 2 * 86_400_000).toISOString() });
    const res = await t.call("POST", "/auth/login", { body: { email: expired.admin.email, password: expired.password } });
    expect(res.status).toBe(402);
    expect(res.body.error).toBe("ERR_COMPANY_EXPIRED");
    expect(res.body.data.dueDate).toBe(expired.company.dueDate);
  });
});

describe("tokens and sessions", () => {
  it("GET /auth/me answers for a valid token, 401 without or with a bad one", async () => {
    const { token } = await a.login(a.admin.email);
    const me = await t.call("GET", "/auth/me", { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(a.admin.id);
    expect((await t.call("GET", "/auth/me")).status).toBe(401);
    expect((await t.call("GET", "/auth/me", { token: "garbage" })).status).toBe(401);
  });

  it("an expired access token is 403 (the client refreshes), and the refresh cookie rotates", async () => {
    const c = await createTenant(t);
    const login = await c.login(c.admin.email);
    t.clock.advance(16 * 60_000);
    // the token's exp is checked against real time by jose, so sign one that is already expired
    const expired = await t.container.tokens.signAccess(
      { userId: c.admin.id, companyId: c.company.id, profile: "admin", super: false, tokenVersion: 1 },
      new Date(Date.now() - 3600_000),
    );
    expect((await t.call("GET", "/auth/me", { token: expired })).status).toBe(403);

    const first = await t.call("POST", "/auth/refresh_token", { cookie: login.cookie });
    expect(first.status).toBe(200);
    expect(first.body.user.id).toBe(c.admin.id);
    const rotated = cookieOf(first);
    expect(rotated).not.toBe(login.cookie);
    const second = await t.call("POST", "/auth/refresh_token", { cookie: rotated });
    expect(second.status).toBe(200);
    // the first cookie is past its grace window once time moves on
    t.clock.advance(60_000);
    const reused = await t.call("POST", "/auth/refresh_token", { cookie: login.cookie });
    expect(reused.status).toBe(401);
  });

  it("a rotated refresh cookie presented again within the grace window keeps the session, however often (lost answers)", async () => {
    const c = await createTenant(t);
    const login = await c.login(c.admin.email);
    // a page reloads three times in a row, each reload aborting the refresh before its cookie lands
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await t.call("POST", "/auth/refresh_token", { cookie: login.cookie }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // the cookie of the last answer is good, and so is the one of the first (both carry the current id)
    expect((await t.call("POST", "/auth/refresh_token", { cookie: cookieOf(answers[2]!) })).status).toBe(200);
    // past the grace window the original cookie is refused
    t.clock.advance(60_000);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: login.cookie })).status).toBe(401);
  });

  it("a new login ends the older session: its token, its refresh cookie, and its socket gets the auth event", async () => {
    const c = await createTenant(t);
    const older = await c.login(c.user.email);
    const socket = await t.container.services.sockets.connect("conn-older", older.token);
    expect(socket.statusCode).toBe(200);
    const before = t.sender.frames.length;

    const newer = await c.login(c.user.email);
    const frames = t.sender.frames.slice(before);
    expect(frames).toContainEqual({
      connectionId: "conn-older",
      frame: { channel: `company-${c.company.id}-auth`, event: "auth", data: { action: "logout", reason: "other-session", user: { id: c.user.id } } },
    });
    expect((await t.call("GET", "/auth/me", { token: older.token })).status).toBe(401);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: older.cookie })).status).toBe(401);
    expect((await t.call("GET", "/auth/me", { token: newer.token })).status).toBe(200);
  });

  it("logout ends the refresh token", async () => {
    const c = await createTenant(t);
    const s = await c.login(c.admin.email);
    expect((await t.call("DELETE", "/auth/logout", { token: s.token })).status).toBe(204);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: s.cookie })).status).toBe(401);
  });
});

describe("GET /companies/listPlan/{companyId}", () => {
  it("gives the own company's plan flags", async () => {
    const res = await t.call("GET", `/companies/listPlan/${a.company.id}`, { token: a.userToken });
    expect(res.status).toBe(200);
    expect(res.body.plan).toMatchObject({ useCampaigns: true, useKanban: true, users: 10 });
  });
  it("refuses another company's plan (cross-tenant)", async () => {
    const res = await t.call("GET", `/companies/listPlan/${a.company.id}`, { token: b.adminToken });
    expect(res).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
  });
});

describe("GET /version", () => {
  it("answers the version without a token", async () => {
    expect(await t.call("GET", "/version")).toMatchObject({ status: 200, body: { version: expect.any(String) } });
  });
});

describe("realtime isolation", () => {
  it("an event of company A never reaches company B's sockets", async () => {
    await t.container.services.sockets.connect("conn-a", (await a.login(a.admin.email)).token);
    await t.container.services.sockets.connect("conn-b", b.adminToken);
    const before = t.sender.frames.length;
    await t.container.services.realtime.publish(a.company.id, "ticket", { action: "delete", ticketId: 1 });
    const targets = t.sender.frames.slice(before).map((f) => f.connectionId);
    expect(targets).toContain("conn-a");
    expect(targets).not.toContain("conn-b");
  });

  it("a socket that is gone is removed from the registry", async () => {
    expect((await t.container.services.sockets.connect("conn-gone", (await a.login(a.user.email)).token)).statusCode).toBe(200);
    t.sender.gone.add("conn-gone");
    // past the window in which a socket answering "gone" may still be being accepted (socket-accept-window.int.test.ts)
    t.clock.advance(CONNECT_WINDOW_MS);
    await t.container.services.realtime.publish(a.company.id, "ticket", { action: "delete", ticketId: 1 });
    expect(await t.container.repos.connections.findById("conn-gone")).toBeNull();
  });

  it("a socket with a bad token is refused", async () => {
    expect((await t.container.services.sockets.connect("conn-bad", "bad")).statusCode).toBe(401);
  });
});

describe("the principal services receive", () => {
  it("carries id, company, profile, queues and flags, never the password hash, the token version or refresh ids", async () => {
    const { token } = await a.login(a.admin.email);
    const auth = await t.container.services.auth.authenticate(token);
    expect(auth.companyId).toBe(a.company.id);
    expect(auth.user).toEqual({
      id: a.admin.id,
      companyId: a.company.id,
      name: a.admin.name,
      email: a.admin.email,
      profile: "admin",
      super: a.admin.super,
      allTicket: a.admin.allTicket,
      queueIds: a.admin.queueIds,
      whatsappId: a.admin.whatsappId,
    });
    for (const secret of ["passwordHash", "tokenVersion", "refreshJti", "prevRefreshJti", "prevRefreshUntil"]) expect(auth.user).not.toHaveProperty(secret);
  });
});
