import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
});

const codeFromMail = (to: string) => {
  const mail = [...t.mailer.sent].reverse().find((m) => m.to === to);
  return mail?.text.match(/código de verificação é: (\d{6})/)?.[1];
};
let ip = 0;
const from = () => `9.9.9.${++ip}`;

describe("password reset", () => {
  it("emails a code; the code resets the password once; old sessions end", async () => {
    const c = await createTenant(t);
    const sent = await t.call("POST", `/forgetpassword/${encodeURIComponent(c.user.email)}`, { address: from() });
    expect(sent).toMatchObject({ status: 200, body: { status: 200 } });
    const code = codeFromMail(c.user.email);
    expect(code).toMatch(/^\d{6}$/);

    const ok = await t.call("POST", `/resetpasswords/${c.user.email}/${code}/NovaSenha9`, { address: from() });
    expect(ok.status).toBe(200);
    expect((await t.call("GET", "/auth/me", { token: c.userToken })).status).toBe(401);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: c.userSession!.cookie })).status).toBe(401);
    expect((await t.call("POST", "/auth/login", { body: { email: c.user.email, password: "NovaSenha9" } })).status).toBe(200);

    const again = await t.call("POST", `/resetpasswords/${c.user.email}/${code}/OutraSenha9`, { address: from() });
    expect(again).toMatchObject({ status: 400, body: { error: "ERR_INVALID_RESET_TOKEN" } });
    expect((await t.call("POST", "/auth/login", { body: { email: c.user.email, password: "NovaSenha9" } })).status).toBe(200);
  });

  it("answers data.status 404 for an unknown email and sends nothing", async () => {
    const before = t.mailer.sent.length;
    const res = await t.call("POST", "/forgetpassword/ninguem@teste.com", { address: from() });
    expect(res).toMatchObject({ status: 200, body: { status: 404 } });
    expect(t.mailer.sent.length).toBe(before);
    expect((await t.call("POST", "/forgetpassword/not-an-email", { address: from() })).body.error).toBe("ERR_VALIDATION");
  });

  it("the same answer for a wrong code whether or not the email exists", async () => {
    const known = await t.call("POST", `/resetpasswords/${a.admin.email}/123456/NovaSenha9`, { address: from() });
    const unknown = await t.call("POST", `/resetpasswords/ninguem@teste.com/123456/NovaSenha9`, { address: from() });
    expect(known).toMatchObject({ status: 400, body: { error: "ERR_INVALID_RESET_TOKEN" } });
    expect(unknown).toEqual({ ...known, headers: unknown.headers });
  });

  it("refuses a weak new password without using up the code", async () => {
    const c = await createTenant(t);
    await t.call("POST", `/forgetpassword/${c.admin.email}`, { address: from() });
    const code = codeFromMail(c.admin.email)!;
    for (const weak of ["curta1A", "semnumeroA", "SEMMINUSCULA1", "semmaiuscula1"]) {
      const res = await t.call("POST", `/resetpasswords/${c.admin.email}/${code}/${weak}`, { address: from() });
      expect(res).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
    expect((await t.call("POST", "/resetpasswords", { body: { email: c.admin.email, token: code, newPassword: "Valida123" }, address: from() })).status).toBe(200);
  });

  it("a code expires after 30 minutes", async () => {
    const c = await createTenant(t);
    await t.call("POST", `/forgetpassword/${c.admin.email}`, { address: from() });
    const code = codeFromMail(c.admin.email)!;
    t.clock.advance(31 * 60_000);
    const res = await t.call("POST", `/resetpasswords/${c.admin.email}/${code}/NovaSenha9`, { address: from() });
    expect(res.body.error).toBe("ERR_INVALID_RESET_TOKEN");
    expect((await t.call("POST", "/auth/login", { body: { email: c.admin.email, password: c.password } })).status).toBe(200);
  });

  it("five wrong codes burn the code; requests are throttled per email", async () => {
    const c = await createTenant(t);
    await t.call("POST", `/forgetpassword/${c.user.email}`, { address: from() });
    const code = codeFromMail(c.user.email)!;
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) await t.call("POST", `/resetpasswords/${c.user.email}/${wrong}/NovaSenha9`, { address: from() });
    expect((await t.call("POST", `/resetpasswords/${c.user.email}/${code}/NovaSenha9`, { address: from() })).body.error).toBe("ERR_INVALID_RESET_TOKEN");
    await t.call("POST", `/forgetpassword/${c.user.email}`, { address: from() });
    await t.call("POST", `/forgetpassword/${c.user.email}`, { address: from() });
    const limited = await t.call("POST", `/forgetpassword/${c.user.email}`, { address: from() });
    expect(limited).toMatchObject({ status: 429, body: { error: "ERR_TOO_MANY_ATTEMPTS" } });
  });

  it("never writes the code to the log", async () => {
    // the logger (Powertools) writes to process.stdout through its own Console: capture the stream itself
    const lines: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0) as typeof process.stdout.write;
    const level = process.env.TEST_LOG_LEVEL;
    process.env.TEST_LOG_LEVEL = "debug";
    try {
      const t2 = await createTestApp();
      const c = await createTenant(t2);
      await t2.call("POST", `/forgetpassword/${c.admin.email}`, { address: from() });
      const code = [...t2.mailer.sent].pop()!.text.match(/(\d{6})/)![1]!;
      await t2.call("POST", `/resetpasswords/${c.admin.email}/${code}/NovaSenha9`, { address: from() });
      expect(lines.some((l) => l.includes("password reset requested"))).toBe(true);
      expect(lines.join("\n")).not.toContain(code);
    } finally {
      process.stdout.write = original;
      if (level === undefined) delete process.env.TEST_LOG_LEVEL;
      else process.env.TEST_LOG_LEVEL = level;
    }
  });
});
