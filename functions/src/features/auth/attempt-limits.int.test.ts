import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { base32Decode, totp } from "../mfa/totp";

/**
 * Limits that hold under concurrency (issue 27 findings 3 and 7, docs/adr/0064), with the default limits: 5 per
 * account and 20 per address in 15 minutes. Guesses are sent all at once with the right one LAST: each takes its
 * slot before the secret is checked, so the right one finds none left.
 */
let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
});

let n = 0;
const newUser = async (tenant: Tenant) => {
  const email = `limits-${++n}-${Math.random().toString(36).slice(2, 6)}@x.com`;
  // a fresh admin session each time: an admin signing in elsewhere in these tests ends the previous one
  const adminToken = (await tenant.login(tenant.admin.email)).token;
  const made = await t.call("POST", "/users", { token: adminToken, body: { name: "Limites", email, password: "Senha1234", profile: "user", queueIds: [] } });
  expect(made.status).toBe(201);
  return { id: made.body.id as number, email };
};
const login = (email: string, password: string, address: string) => t.call("POST", "/auth/login", { body: { email, password }, address });
const statuses = (results: { status: number }[]) => results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});

describe("sign-in under concurrency", () => {
  it("100 passwords at once, the right one last: refused; only 5 were checked", async () => {
    const u = await newUser(a);
    const guesses = Array.from({ length: 100 }, (_, i) => (i === 99 ? "Senha1234" : `errada${i}`));
    // a hundred addresses: the per-account limit alone must hold
    const results = await Promise.all(guesses.map((p, i) => login(u.email, p, `203.0.113.${i}`)));
    expect(results[99]).toMatchObject({ status: 429, body: { error: "ERR_TOO_MANY_ATTEMPTS" } });
    expect(statuses(results)).toEqual({ 401: 5, 429: 95 });
    expect(Number(results[99]!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(results[99]!.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await login(u.email, "Senha1234", "203.0.113.200")).status).toBe(200);
  });

  it("an office behind one address: 5 typos lock that account only; colleagues sign in; 20 failures lock the address", async () => {
    const office = "198.51.100.10";
    const typo = await newUser(a);
    const colleague = await newUser(a);
    for (let i = 0; i < 5; i++) expect((await login(typo.email, "errada", office)).status).toBe(401);
    expect((await login(typo.email, "Senha1234", office)).status).toBe(429);
    expect((await login(colleague.email, "Senha1234", office)).status).toBe(200);
    expect((await login(a.admin.email, a.password, office)).status).toBe(200);
    // 15 more failures (other emails) reach the address's 20: then the address waits
    const others = await Promise.all(Array.from({ length: 15 }, (_, i) => login(`ninguem${i}@x.com`, "errada", office)));
    expect(statuses(others)).toEqual({ 401: 15 });
    const locked = await login(colleague.email, "Senha1234", office);
    expect(locked).toMatchObject({ status: 429, body: { error: "ERR_TOO_MANY_ATTEMPTS" } });
    expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await login(colleague.email, "Senha1234", "198.51.100.11")).status).toBe(200);
    t.clock.advance(15 * 60_000 + 1000);
  });

  it("a right password gives its slot back: 30 sign-ins from one address all pass, and 4 typos then a sign-in start the account over", async () => {
    const u = await newUser(a);
    for (let i = 0; i < 30; i++) expect((await login(u.email, "Senha1234", "192.0.2.200")).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(u.email, "errada", "192.0.2.201")).status).toBe(401);
    expect((await login(u.email, "Senha1234", "192.0.2.202")).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(u.email, "errada", "192.0.2.203")).status).toBe(401);
    expect((await login(u.email, "Senha1234", "192.0.2.204")).status).toBe(200);
  });
});

describe("two-factor codes under concurrency", () => {
  it("100 codes at once on one mfaToken, the right one last: refused", async () => {
    const u = await newUser(a);
    const token = (await login(u.email, "Senha1234", "192.0.2.50")).body.token as string;
    const { secret } = (await t.call("POST", "/auth/mfa/setup", { token, body: {} })).body as { secret: string };
    const code = () => totp(base32Decode(secret), t.clock.now);
    expect((await t.call("POST", "/auth/mfa/enable", { token, body: { code: code() } })).status).toBe(200);
    t.clock.advance(30_000);
    const { mfaToken } = (await login(u.email, "Senha1234", "192.0.2.51")).body as { mfaToken: string };
    const right = code();
    const wrong = (i: number) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, "0");
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => t.call("POST", "/auth/mfa/verify", { body: { mfaToken, code: i === 99 ? right : wrong(i) }, address: `192.0.2.${100 + (i % 50)}` })),
    );
    expect(results[99]).toMatchObject({ status: 429, body: { error: "ERR_TOO_MANY_ATTEMPTS" } });
    expect(statuses(results)).toEqual({ 400: 5, 429: 95 });
    // the account waits the window out, whatever the address
    expect((await t.call("POST", "/auth/mfa/verify", { body: { mfaToken, code: right }, address: "192.0.2.99" })).status).toBe(429);
    t.clock.advance(15 * 60_000 + 1000);
  });
});

describe("password reset codes under concurrency", () => {
  it("100 codes at once, the right one last: refused (five per code), and the password is unchanged", async () => {
    const u = await newUser(a);
    expect((await t.call("POST", `/forgetpassword/${encodeURIComponent(u.email)}`, { address: "192.0.2.60" })).status).toBe(200);
    const mail = [...t.mailer.sent].reverse().find((m) => m.to === u.email);
    const right = mail!.text.match(/código de verificação é: (\d{6})/)![1]!;
    const wrong = (i: number) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, "0");
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.call("POST", "/resetpasswords", { body: { email: u.email, token: i === 99 ? right : wrong(i), newPassword: "Invasor123" }, address: `192.0.2.${150 + (i % 5)}` }),
      ),
    );
    expect(results[99]).toMatchObject({ status: 400, body: { error: "ERR_INVALID_RESET_TOKEN" } });
    expect(results.every((r) => r.status !== 200)).toBe(true);
    // the code is spent: even alone, the right code no longer works
    expect((await t.call("POST", "/resetpasswords", { body: { email: u.email, token: right, newPassword: "Invasor123" }, address: "192.0.2.61" })).status).toBe(400);
    expect((await login(u.email, "Senha1234", "192.0.2.62")).status).toBe(200);
    expect((await login(u.email, "Invasor123", "192.0.2.63")).status).toBe(401);
  });
});
