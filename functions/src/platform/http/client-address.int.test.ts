import { handle } from "hono/aws-lambda";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

/**
 * The throttles' client address (client-address.ts): the edge's, never a header the client sets.
 * `address` plays the local Node socket; `env: { requestContext }` plays API Gateway's Lambda event.
 */
const SECRET = "origin-verify-secret-for-the-client-address-test-0123456789";
const forged = (i: number) => ({ "x-forwarded-for": `66.66.66.${i}`, "cloudfront-viewer-address": `77.77.77.${i}:443` });
const lambda = (sourceIp: string) => ({ requestContext: { http: { sourceIp } } });

describe("local socket address", () => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "3" });
    a = await createTenant(t);
  });
  const login = (address: string, email: string, password: string, headers: Record<string, string> = {}) =>
    t.call("POST", "/auth/login", { address, headers, body: { email, password } });

  it("login: rotating forged headers do not escape the address's throttle; another address is not locked", async () => {
    for (let i = 0; i < 3; i++) expect((await login("203.0.113.1", `x${i}@teste.com`, "bad", forged(i))).status).toBe(401);
    expect((await login("203.0.113.1", a.admin.email, a.password, forged(9))).status).toBe(429);
    expect((await login("203.0.113.2", a.admin.email, a.password)).status).toBe(200);
  });

  it("login: the per-email throttle still holds across addresses", async () => {
    const c = await createTenant(t);
    for (let i = 0; i < 3; i++) await login(`198.51.100.${i}`, c.user.email, "bad");
    expect((await login("198.51.100.50", c.user.email, c.password)).status).toBe(429);
  });

  it("an IPv6 client is one address per /64 (it cannot rotate inside its own network)", async () => {
    for (let i = 1; i <= 3; i++) await login(`2001:db8:1:2::${i}`, `v6-${i}@teste.com`, "bad");
    expect((await login("2001:db8:1:2:ffff::9", a.user.email, a.password)).status).toBe(429);
    expect((await login("2001:db8:1:3::1", a.user.email, a.password)).status).toBe(200);
  });

  it("sign-up: the per-address limit ignores forged headers and spares other addresses", async () => {
    const op = await createTenant(t);
    const signup = (address: string, headers: Record<string, string> = {}) =>
      t.call("POST", "/companies/cadastro", {
        address,
        headers,
        body: { name: "Loja Teste", email: `s-${Math.random().toString(36).slice(2, 10)}@teste.com`, phone: "(11) 98888-7777", password: "segredo1", planId: op.plan.id },
      });
    for (let i = 0; i < 10; i++) expect((await signup("192.0.2.10", forged(i))).status).toBe(201);
    expect((await signup("192.0.2.10", forged(99))).status).toBe(429);
    expect((await signup("192.0.2.11")).status).toBe(201);
  });

  it("password reset: the per-address limit ignores forged headers and spares other addresses", async () => {
    const ask = (address: string, email: string, headers: Record<string, string> = {}) =>
      t.call("POST", `/forgetpassword/${encodeURIComponent(email)}`, { address, headers });
    for (let i = 0; i < 20; i++) expect((await ask("192.0.2.20", `r${i}@teste.com`, forged(i))).status).toBe(200);
    expect((await ask("192.0.2.20", "r-last@teste.com", forged(99))).status).toBe(429);
    expect((await ask("192.0.2.21", "r-last@teste.com")).status).toBe(200);
  });
});

describe("AWS: API Gateway's source address, CloudFront's viewer address only with the origin secret", () => {
  it("without the origin secret configured, the request context's source address counts and headers are ignored", async () => {
    const t = await createTestApp({ LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "3" });
    const a = await createTenant(t);
    const login = (ip: string, email: string, password: string, headers: Record<string, string> = {}) =>
      t.call("POST", "/auth/login", { env: lambda(ip), headers, body: { email, password } });
    for (let i = 0; i < 3; i++) await login("203.0.113.7", `y${i}@teste.com`, "bad", forged(i));
    expect((await login("203.0.113.7", a.admin.email, a.password, forged(50))).status).toBe(429);
    expect((await login("203.0.113.8", a.admin.email, a.password)).status).toBe(200);
  });

  it("behind CloudFront (valid x-origin-verify), the viewer address counts, not the edge's, nor x-forwarded-for", async () => {
    const t = await createTestApp({ LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "3", ORIGIN_VERIFY_SECRET: SECRET });
    const edge = lambda("130.176.0.1"); // every viewer arrives from a CloudFront edge address
    const via = (viewer: string, xff: string) => ({ "x-origin-verify": SECRET, "cloudfront-viewer-address": viewer, "x-forwarded-for": xff });
    // the tenant is created through the API: its logins carry the secret too
    const a = await createTenant({ ...t, call: (m: string, p: string, o: Parameters<TestApp["call"]>[2] = {}) => t.call(m, p, { ...o, env: edge, headers: { ...o.headers, ...via("192.0.2.99:1", "1.1.1.1") } }) });
    const login = (viewer: string, email: string, password: string, xff = "9.9.9.9") =>
      t.call("POST", "/auth/login", { env: edge, headers: via(viewer, xff), body: { email, password } });
    for (let i = 0; i < 3; i++) await login(`192.0.2.1:${4000 + i}`, `z${i}@teste.com`, "bad", `8.8.8.${i}`);
    expect((await login("192.0.2.1:5000", a.admin.email, a.password, "8.8.4.4")).status).toBe(429);
    expect((await login("192.0.2.2:5000", a.admin.email, a.password)).status).toBe(200);
    // IPv6 viewers: "address:port" without brackets
    for (let i = 1; i <= 3; i++) await login(`2001:db8:aa:bb::${i}:443`, `w${i}@teste.com`, "bad");
    expect((await login("2001:db8:aa:bb::77:443", a.user.email, a.password)).status).toBe(429);
    expect((await login("2001:db8:aa:cc::1:443", a.user.email, a.password)).status).toBe(200);
  });
});

describe("through the Lambda adapter itself (hono/aws-lambda, API Gateway HTTP API v2 event)", () => {
  it("the event's requestContext.http.sourceIp is the address; the event's forged headers are not", async () => {
    const t = await createTestApp({ LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "3" });
    const a = await createTenant(t);
    const lambdaHandler = handle(t.app);
    const login = async (sourceIp: string, email: string, password: string, headers: Record<string, string> = {}) => {
      const event = {
        version: "2.0",
        routeKey: "$default",
        rawPath: "/api/auth/login",
        rawQueryString: "",
        headers: { "content-type": "application/json", host: "api.example.com", ...headers },
        requestContext: {
          accountId: "1",
          apiId: "api",
          domainName: "api.example.com",
          domainPrefix: "api",
          http: { method: "POST", path: "/api/auth/login", protocol: "HTTP/1.1", sourceIp, userAgent: "test" },
          requestId: "r",
          routeKey: "$default",
          stage: "$default",
          time: "",
          timeEpoch: 0,
        },
        body: JSON.stringify({ email, password }),
        isBase64Encoded: false,
      };
      const res = (await lambdaHandler(event as never, {} as never)) as { statusCode: number };
      return res.statusCode;
    };
    for (let i = 0; i < 3; i++) expect(await login("203.0.113.40", `l${i}@teste.com`, "bad", forged(i))).toBe(401);
    expect(await login("203.0.113.40", a.admin.email, a.password, forged(77))).toBe(429);
    expect(await login("203.0.113.41", a.admin.email, a.password)).toBe(200);
  });
});

