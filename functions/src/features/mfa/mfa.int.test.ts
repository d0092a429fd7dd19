import { beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "@atende/shared/domain/audit/audit";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { makeOperator } from "../../testing/operator";
import { base32Decode, totp } from "./totp";

/**
 * Two-factor sign-in over HTTP (issue 14 item 1 and its tests in item 6): setup, enable, login with a code or a
 * recovery code, the MFA token useless for anything but its step, wrong codes in the login throttle, turning it off,
 * required two-factor forcing setup at the next login, cross-tenant.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_ATTEMPTS: "4" });
  a = await createTenant(t);
  b = await createTenant(t);
});

const cookieOf = (res: { headers: Headers }) => (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
const code = (secret: string, offsetSteps = 0) => totp(base32Decode(secret), new Date(t.clock.now.getTime() + offsetSteps * 30_000));
const wrong = (secret: string) => (code(secret) === "000000" ? "111111" : "000000");
/** Moves the clock to the next 30-second step (each step's code works once). */
const nextStep = () => t.clock.advance(30_000);

let ip = 0;
const login = (email: string, password: string) => t.call("POST", "/auth/login", { body: { email, password }, address: `192.0.2.${++ip}` });

/** A fresh attendant of `tenant` with two-factor on: their token, secret and recovery codes. */
const enrolled = async (tenant: Tenant) => {
  const email = `mfa-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@x.com`;
  const adminToken = (await tenant.login(tenant.admin.email)).token;
  const made = await t.call("POST", "/users", { token: adminToken, body: { name: "Com 2FA", email, password: "Senha1234", profile: "user", queueIds: [] } });
  expect(made.status).toBe(201);
  const session = await login(email, "Senha1234");
  const token = session.body.token as string;
  const setup = await t.call("POST", "/auth/mfa/setup", { token, body: {} });
  expect(setup.status).toBe(200);
  const enable = await t.call("POST", "/auth/mfa/enable", { token, body: { code: code(setup.body.secret) } });
  expect(enable.status).toBe(200);
  nextStep();
  // enabling renews the caller's session (every other one ends): the answer's token is the one that works now
  return { id: made.body.id as number, email, token: enable.body.token as string, secret: setup.body.secret as string, recovery: enable.body.recoveryCodes as string[] };
};

describe("setup and enable", () => {
  it("answers the secret and its otpauth URI; enable with a right code answers ten recovery codes; the state says so", async () => {
    const { token } = await a.login(a.user.email);
    const setup = await t.call("POST", "/auth/mfa/setup", { token, body: {} });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Atende:/);
    expect(setup.body.otpauthUrl).toContain(`secret=${setup.body.secret}`);
    expect((await t.call("GET", "/auth/mfa", { token })).body).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
    const bad = await t.call("POST", "/auth/mfa/enable", { token, body: { code: wrong(setup.body.secret) } });
    expect(bad).toMatchObject({ status: 400, body: { error: "ERR_MFA_INVALID_CODE" } });
    const ok = await t.call("POST", "/auth/mfa/enable", { token, body: { code: code(setup.body.secret) } });
    expect(ok.status).toBe(200);
    expect(ok.body.recoveryCodes).toHaveLength(10);
    // every other session ends: the token used is refused; the answer carries the caller's new session and cookie
    expect((await t.call("GET", "/auth/mfa", { token })).status).toBe(401);
    expect(cookieOf(ok)).toMatch(/^jrt=./);
    const renewed = ok.body.token as string;
    expect((await t.call("GET", "/auth/mfa", { token: renewed })).body).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect((await t.call("POST", "/auth/mfa/setup", { token: renewed, body: {} })).body).toEqual({ error: "ERR_MFA_ALREADY_ENABLED" });
  });

  it("needs a session (or a setup token)", async () => {
    expect((await t.call("POST", "/auth/mfa/setup", { body: {} })).status).toBe(401);
    expect((await t.call("POST", "/auth/mfa/enable", { body: { code: "123456" } })).status).toBe(401);
    expect((await t.call("GET", "/auth/mfa")).status).toBe(401);
  });
});

describe("login with two-factor on", () => {
  it("the password answers only { mfaRequired, mfaToken }; verify with a code answers the usual session and cookie", async () => {
    const u = await enrolled(a);
    const first = await login(u.email, "Senha1234");
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(["mfaRequired", "mfaToken", "setupRequired"]);
    expect(first.body).toMatchObject({ mfaRequired: true, setupRequired: false });
    expect(first.headers.get("set-cookie")).toBeNull();
    // the password alone did not start a session: the old token still works
    expect((await t.call("GET", "/auth/me", { token: u.token })).status).toBe(200);

    const verified = await t.call("POST", "/auth/mfa/verify", { body: { mfaToken: first.body.mfaToken, code: code(u.secret) } });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ id: u.id, email: u.email });
    expect(typeof verified.body.token).toBe("string");
    expect(cookieOf(verified)).toMatch(/^jrt=/);
    expect((await t.call("GET", "/auth/me", { token: verified.body.token })).status).toBe(200);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: cookieOf(verified) })).status).toBe(200);
    // one session per user, as with a plain login
    expect((await t.call("GET", "/auth/me", { token: u.token })).status).toBe(401);
  });

  it("the MFA token is useless for anything but verify, and serves once", async () => {
    const u = await enrolled(a);
    const { mfaToken } = (await login(u.email, "Senha1234")).body;
    for (const [method, path] of [
      ["GET", "/auth/me"],
      ["GET", "/tickets"],
      ["GET", "/users/"],
      ["GET", "/auth/mfa"],
      ["GET", "/audit-logs"],
    ] as const) {
      expect((await t.call(method, path, { token: mfaToken })).status, path).toBe(401);
    }
    expect((await t.call("POST", "/auth/refresh_token", { cookie: `jrt=${mfaToken}` })).status).toBe(401);
    // a verify token is not a setup token
    expect((await t.call("POST", "/auth/mfa/setup", { body: { mfaToken } })).body).toEqual({ error: "ERR_MFA_TOKEN_INVALID" });
    expect((await t.call("POST", "/auth/mfa/enable", { body: { mfaToken, code: code(u.secret) } })).body).toEqual({ error: "ERR_MFA_TOKEN_INVALID" });

    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken, code: code(u.secret) } })).status).toBe(200);
    nextStep();
    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken, code: code(u.secret) } })).body).toEqual({ error: "ERR_MFA_TOKEN_INVALID" });
    // and it expires
    const late = (await login(u.email, "Senha1234")).body.mfaToken;
    t.clock.advance(6 * 60_000);
    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken: late, code: code(u.secret) } })).body).toEqual({ error: "ERR_MFA_TOKEN_INVALID" });
  });

  it("a code works once (no replay within its window)", async () => {
    const u = await enrolled(a);
    const c = code(u.secret);
    const one = (await login(u.email, "Senha1234")).body.mfaToken;
    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken: one, code: c } })).status).toBe(200);
    const two = (await login(u.email, "Senha1234")).body.mfaToken;
    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken: two, code: c } })).body).toEqual({ error: "ERR_MFA_INVALID_CODE" });
  });

  it("a recovery code works once", async () => {
    const u = await enrolled(a);
    const one = (await login(u.email, "Senha1234")).body.mfaToken;
    const used = await t.call("POST", "/auth/mfa/verify", { body: { mfaToken: one, code: u.recovery[0] } });
    expect(used.status).toBe(200);
    expect((await t.call("GET", "/auth/mfa", { token: used.body.token })).body.recoveryCodesLeft).toBe(9);
    const two = (await login(u.email, "Senha1234")).body.mfaToken;
    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken: two, code: u.recovery[0] } })).body).toEqual({ error: "ERR_MFA_INVALID_CODE" });
    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken: two, code: u.recovery[1]!.toLowerCase() } })).status).toBe(200);
  });

  it("wrong codes count toward the login throttle: at the limit even the right code waits", async () => {
    const u = await enrolled(a);
    const address = "198.51.100.77";
    const { mfaToken } = (await t.call("POST", "/auth/login", { body: { email: u.email, password: "Senha1234" }, address })).body;
    for (let i = 0; i < 4; i++) {
      expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken, code: wrong(u.secret) }, address })).body).toEqual({ error: "ERR_MFA_INVALID_CODE" });
    }
    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken, code: code(u.secret) }, address })).body).toMatchObject({ error: "ERR_TOO_MANY_ATTEMPTS" });
    // the password login of that email is throttled too
    expect((await login(u.email, "Senha1234")).body).toMatchObject({ error: "ERR_TOO_MANY_ATTEMPTS" });
    t.clock.advance(16 * 60_000);
  });

  it("the trail records the sign-in steps", async () => {
    const u = await enrolled(a);
    const { mfaToken } = (await login(u.email, "Senha1234")).body;
    await t.call("POST", "/auth/mfa/verify", { body: { mfaToken, code: wrong(u.secret) } });
    await t.call("POST", "/auth/mfa/verify", { body: { mfaToken, code: code(u.secret) } });
    const entries = (await t.call("GET", `/audit-logs?recordKind=user&recordId=${u.id}`, { token: (await a.login(a.admin.email)).token })).body.logs as AuditEntry[];
    const actions = entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["mfa_enabled", "mfa_failed", "mfa_verified", "login"]));
  });
});

describe("turning it off", () => {
  it("needs a current code", async () => {
    const u = await enrolled(a);
    expect((await t.call("POST", "/auth/mfa/disable", { token: u.token, body: { code: wrong(u.secret) } })).body).toEqual({ error: "ERR_MFA_INVALID_CODE" });
    expect((await t.call("POST", "/auth/mfa/disable", { token: u.token, body: {} })).body).toMatchObject({ error: "ERR_VALIDATION" });
    const off = await t.call("POST", "/auth/mfa/disable", { token: u.token, body: { code: code(u.secret) } });
    expect(off.status).toBe(200);
    // every other session ends (the old token is refused); the caller continues in the answer's new session
    expect((await t.call("GET", "/auth/mfa", { token: u.token })).status).toBe(401);
    expect(cookieOf(off)).toMatch(/^jrt=./);
    expect((await t.call("GET", "/auth/mfa", { token: off.body.token as string })).body.enabled).toBe(false);
    const plain = await login(u.email, "Senha1234");
    expect(typeof plain.body.token).toBe("string");
  });
});

describe("an admin resets a user's two-factor (lost phone and recovery codes)", () => {
  it("the user signs in with the password alone again; the trail records who reset it; attendants cannot", async () => {
    const c = await createTenant(t);
    const u = await enrolled(c);
    const adminToken = (await c.login(c.admin.email)).token;
    // an attendant cannot reset anybody, not even themselves through this route
    expect((await t.call("DELETE", `/auth/mfa/users/${u.id}`, { token: u.token })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await t.call("DELETE", `/auth/mfa/users/${u.id}`, { token: adminToken })).status).toBe(204);
    // the user's sessions end with it
    expect((await t.call("GET", "/auth/mfa", { token: u.token })).status).toBe(401);
    expect((await t.call("GET", "/auth/mfa", { token: (await login(u.email, "Senha1234")).body.token })).body.enabled).toBe(false);
    // nothing left to reset; an unknown id is not found
    expect((await t.call("DELETE", `/auth/mfa/users/${u.id}`, { token: adminToken })).body).toEqual({ error: "ERR_MFA_NOT_ENABLED" });
    expect((await t.call("DELETE", `/auth/mfa/users/99999999`, { token: adminToken })).body).toEqual({ error: "ERR_NO_USER_FOUND" });
    expect((await t.call("DELETE", `/auth/mfa/users/abc`, { token: adminToken })).body).toEqual({ error: "ERR_NO_USER_FOUND" });
    const entries = (await t.call("GET", `/audit-logs?recordKind=user&recordId=${u.id}`, { token: adminToken })).body.logs as AuditEntry[];
    expect(entries.find((e) => e.action === "mfa_reset")).toMatchObject({ actor: { kind: "user", userId: c.admin.id }, record: { kind: "user", id: String(u.id) } });
  });

  it("cross-tenant: B's admin cannot reset A's user", async () => {
    const c = await createTenant(t);
    const u = await enrolled(c);
    const bToken = (await b.login(b.admin.email)).token;
    expect((await t.call("DELETE", `/auth/mfa/users/${u.id}`, { token: bToken })).body).toEqual({ error: "ERR_NO_USER_FOUND" });
    expect((await t.call("GET", "/auth/mfa", { token: u.token })).body.enabled).toBe(true);
  });

  it("a deleted company leaves no two-factor record behind", async () => {
    const op = await createTenant(t);
    const opToken = await makeOperator(t, op);
    const c = await createTenant(t);
    const u = await enrolled(c);
    expect(await t.container.services.mfa.isEnabled(c.company.id, u.id)).toBe(true);
    expect((await t.call("DELETE", `/companies/${c.company.id}`, { token: opToken })).status).toBeLessThan(300);
    expect(await t.container.services.mfa.isEnabled(c.company.id, u.id)).toBe(false);
  });
});

describe("required two-factor", () => {
  it("the company's admin requires it: the next login walks the user through setup and completes with the session", async () => {
    const c = await createTenant(t);
    expect((await t.call("PUT", "/settings/requireMfa", { token: c.adminToken, body: { value: "enabled" } })).status).toBe(200);
    const first = await login(c.user.email, c.password);
    expect(first.body).toMatchObject({ mfaRequired: true, setupRequired: true });
    const { mfaToken } = first.body;
    // a setup token cannot verify, nor act as a session
    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken, code: "123456" } })).body).toEqual({ error: "ERR_MFA_TOKEN_INVALID" });
    expect((await t.call("GET", "/auth/me", { token: mfaToken })).status).toBe(401);
    const setup = await t.call("POST", "/auth/mfa/setup", { body: { mfaToken } });
    expect(setup.status).toBe(200);
    const enabled = await t.call("POST", "/auth/mfa/enable", { body: { mfaToken, code: code(setup.body.secret) } });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(enabled.body.user).toMatchObject({ id: c.user.id });
    expect(cookieOf(enabled)).toMatch(/^jrt=/);
    expect((await t.call("GET", "/auth/mfa", { token: enabled.body.token })).body).toEqual({ enabled: true, required: true, recoveryCodesLeft: 10 });
    // the setup token served once
    expect((await t.call("POST", "/auth/mfa/setup", { body: { mfaToken } })).body).toEqual({ error: "ERR_MFA_TOKEN_INVALID" });
    // while required it cannot be turned off
    nextStep();
    expect((await t.call("POST", "/auth/mfa/disable", { token: enabled.body.token, body: { code: code(setup.body.secret) } })).body).toEqual({ error: "ERR_MFA_REQUIRED" });
    // the next login asks for a code
    expect((await login(c.user.email, c.password)).body).toMatchObject({ mfaRequired: true, setupRequired: false });
    // an attendant cannot change the requirement
    expect((await t.call("PUT", "/settings/requireMfa", { token: enabled.body.token, body: { value: "disabled" } })).body).toEqual({ error: "ERR_NO_PERMISSION" });
  });

  it("the operator requires it for every company; a company admin cannot set the global key", async () => {
    const op = await createTenant(t);
    const opToken = await makeOperator(t, op);
    const c = await createTenant(t);
    expect((await t.call("PUT", "/settings/requireMfaAllCompanies", { token: c.adminToken, body: { value: "enabled" } })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await t.call("PUT", "/settings/requireMfaAllCompanies", { token: opToken, body: { value: "enabled" } })).status).toBe(200);
    expect((await login(c.user.email, c.password)).body).toMatchObject({ mfaRequired: true, setupRequired: true });
    expect((await t.call("PUT", "/settings/requireMfaAllCompanies", { token: opToken, body: { value: "disabled" } })).status).toBe(200);
    expect(typeof (await login(c.user.email, c.password)).body.token).toBe("string");
  });
});

describe("cross-tenant", () => {
  it("every route acts on the caller only: B's admin cannot read or change A's user's two-factor", async () => {
    const u = await enrolled(a);
    const bToken = (await b.login(b.admin.email)).token;
    // B's session sees B's own state
    expect((await t.call("GET", "/auth/mfa", { token: bToken })).body).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
    // no route takes a user id: nothing B sends reaches A's user
    for (const body of [{ code: code(u.secret), userId: u.id }, { code: code(u.secret), companyId: a.company.id, userId: u.id }]) {
      expect((await t.call("POST", "/auth/mfa/disable", { token: bToken, body })).body).toEqual({ error: "ERR_MFA_NOT_ENABLED" });
    }
    expect((await t.call("GET", "/auth/mfa", { token: u.token })).body.enabled).toBe(true);
    // A's MFA token verified with B's context is still A's user only
    const { mfaToken } = (await login(u.email, "Senha1234")).body;
    const v = await t.call("POST", "/auth/mfa/verify", { token: bToken, body: { mfaToken, code: code(u.secret) } });
    expect(v.body.user).toMatchObject({ id: u.id, companyId: a.company.id });
  });
});
