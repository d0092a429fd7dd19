import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { REFRESH_COOKIE } from "./auth.routes";

/** A validly signed token without `exp` is refused: access tokens and refresh cookies alike. */
let t: TestApp;
let a: Tenant;
beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
});

const sign = (claims: Record<string, unknown>, secret: string, sub: string, exp: number | null, jti?: string) => {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject(sub).setIssuedAt(Math.floor(t.clock.now.getTime() / 1000));
  if (jti) jwt = jwt.setJti(jti);
  if (exp !== null) jwt = jwt.setExpirationTime(exp);
  return jwt.sign(new TextEncoder().encode(secret));
};
const inAnHour = () => Math.floor(t.clock.now.getTime() / 1000) + 3600;

describe("tokens without exp", () => {
  it("an access token signed with our key but without exp is 401; the same token with exp works", async () => {
    const user = (await t.container.repos.users.findById(a.company.id, a.user.id))!;
    const claims = { cid: a.company.id, p: "user", s: false, tv: user.tokenVersion };
    const forever = await sign(claims, t.container.config.JWT_SECRET, String(a.user.id), null);
    expect(await t.call("GET", "/auth/me", { token: forever })).toMatchObject({ status: 401, body: { error: "ERR_SESSION_EXPIRED" } });
    const expiring = await sign(claims, t.container.config.JWT_SECRET, String(a.user.id), inAnHour());
    expect((await t.call("GET", "/auth/me", { token: expiring })).status).toBe(200);
  });

  it("a refresh cookie without exp is refused; the same cookie with exp is accepted", async () => {
    const c = await createTenant(t);
    await c.login(c.admin.email);
    const user = (await t.container.repos.users.findById(c.company.id, c.admin.id))!;
    const claims = { cid: c.company.id, tv: user.tokenVersion };
    const forever = await sign(claims, t.container.config.JWT_REFRESH_SECRET, String(c.admin.id), null, user.refreshJti!);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: `${REFRESH_COOKIE}=${forever}` })).status).toBe(401);
    const expiring = await sign(claims, t.container.config.JWT_REFRESH_SECRET, String(c.admin.id), inAnHour(), user.refreshJti!);
    expect((await t.call("POST", "/auth/refresh_token", { cookie: `${REFRESH_COOKIE}=${expiring}` })).status).toBe(200);
  });
});
