import { createECDH, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { vapidKeysFromSecret } from "./push-keys";

/**
 * The push subscriptions API (issue 32, docs/adr/0097): the VAPID key, bad input, the device limit, tenant and user
 * isolation, logout. Delivery itself is tested against the push-service stand-in (infra/local/src/stand-ins/push).
 */
let t: TestApp;
let aws: TestApp;
let a: Tenant;
let b: Tenant;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  // as in AWS: the outbound guard on
  aws = await createTestApp({ OUTBOUND_GUARD: "on" });
  a = await createTenant(t);
  b = await createTenant(t);
});

const keys = () => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
};
const endpoint = () => `https://push.example.com/send/dev-${++n}`;
const subscribe = (app: TestApp, token: string, body: unknown) => app.call("POST", "/push/subscriptions", { token, body });
const unsubscribe = (token: string, ep: string) => t.call("DELETE", "/push/subscriptions", { token, body: { endpoint: ep } });

describe("push subscriptions", () => {
  it("GET /push/public-key answers the VAPID public key: a P-256 point, base64url, the same on every call", async () => {
    const res = await t.call("GET", "/push/public-key", { token: a.userToken });
    expect(res.status).toBe(200);
    const key = Buffer.from(res.body.publicKey as string, "base64url");
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    expect((await t.call("GET", "/push/public-key", { token: b.userToken })).body).toEqual(res.body);
    expect((await t.call("GET", "/push/public-key", {})).status).toBe(401);
    // derived from the secret: one pair on every Lambda, never the same for two secrets
    expect(vapidKeysFromSecret("x".repeat(40))).toEqual(vapidKeysFromSecret("x".repeat(40)));
    expect(vapidKeysFromSecret("x".repeat(40)).publicKey).not.toBe(vapidKeysFromSecret("y".repeat(40)).publicKey);
  });

  it("refuses bad keys, and an endpoint that is not https where the outbound guard is on (AWS)", async () => {
    const good = keys();
    const notAPoint = Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString("base64url");
    const cases: [unknown, string][] = [
      [{ endpoint: endpoint(), keys: { ...good, p256dh: notAPoint } }, "ERR_PUSH_INVALID_KEYS"],
      [{ endpoint: endpoint(), keys: { ...good, p256dh: good.p256dh.slice(0, 40) } }, "ERR_PUSH_INVALID_KEYS"],
      [{ endpoint: endpoint(), keys: { ...good, auth: randomBytes(15).toString("base64url") } }, "ERR_PUSH_INVALID_KEYS"],
      [{ endpoint: endpoint(), keys: { ...good, auth: randomBytes(32).toString("base64url") } }, "ERR_PUSH_INVALID_KEYS"],
      [{ endpoint: "ftp://push.example.com/x", keys: good }, "ERR_PUSH_ENDPOINT_NOT_ALLOWED"],
      [{ endpoint: "not a url", keys: good }, "ERR_VALIDATION"],
      [{ endpoint: endpoint() }, "ERR_VALIDATION"],
    ];
    for (const [body, error] of cases) {
      const res = await subscribe(t, a.userToken, body);
      expect(res.body.error, JSON.stringify(body)).toBe(error);
      expect(res.status).toBe(400);
    }
    const awsTenant = await createTenant(aws);
    for (const ep of ["http://push.example.com/send/1", "https://127.0.0.1/send/1", "https://10.1.2.3/send/1"]) {
      const res = await subscribe(aws, awsTenant.userToken, { endpoint: ep, keys: good });
      expect(res.body, ep).toEqual({ error: "ERR_PUSH_ENDPOINT_NOT_ALLOWED" });
    }
    // locally (guard off) a loopback stand-in's http endpoint is fine
    expect((await subscribe(t, a.userToken, { endpoint: `http://127.0.0.1:9/send/${++n}`, keys: good })).status).toBe(201);
  });

  it("at most 10 devices per user; subscribing a known endpoint again is not a new device", async () => {
    const user = await createTenant(t);
    const eps = Array.from({ length: 10 }, endpoint);
    for (const ep of eps) expect((await subscribe(t, user.userToken, { endpoint: ep, keys: keys() })).status).toBe(201);
    expect(await subscribe(t, user.userToken, { endpoint: endpoint(), keys: keys() })).toMatchObject({ status: 409, body: { error: "ERR_PUSH_TOO_MANY_DEVICES" } });
    expect((await subscribe(t, user.userToken, { endpoint: eps[3], keys: keys() })).status).toBe(201);
    // another user of the company has their own ten
    expect((await subscribe(t, user.adminToken, { endpoint: endpoint(), keys: keys() })).status).toBe(201);
    expect((await unsubscribe(user.userToken, eps[0]!)).status).toBe(200);
    expect((await subscribe(t, user.userToken, { endpoint: endpoint(), keys: keys() })).status).toBe(201);
  });

  it("another user's endpoint cannot be deleted, in the company or from another company (cross-tenant)", async () => {
    const ep = endpoint();
    expect((await subscribe(t, a.userToken, { endpoint: ep, keys: keys() })).status).toBe(201);
    expect(await unsubscribe(a.adminToken, ep)).toMatchObject({ status: 404, body: { error: "ERR_PUSH_SUBSCRIPTION_NOT_FOUND" } });
    expect(await unsubscribe(b.adminToken, ep)).toMatchObject({ status: 404, body: { error: "ERR_PUSH_SUBSCRIPTION_NOT_FOUND" } });
    expect(await unsubscribe(b.userToken, ep)).toMatchObject({ status: 404, body: { error: "ERR_PUSH_SUBSCRIPTION_NOT_FOUND" } });
    // still A's: A removes it (as logout does), once
    expect(await unsubscribe(a.userToken, ep)).toMatchObject({ status: 200, body: { message: "Subscription deleted" } });
    expect((await unsubscribe(a.userToken, ep)).status).toBe(404);
  });

  it("preferences are the caller's own (cross-tenant): defaults, saved, validated", async () => {
    const defaults = { waiting: true, message: true, transfer: true, chat: true, announcement: true, quietStart: null, quietEnd: null };
    expect((await t.call("GET", "/push/preferences", { token: a.userToken })).body).toEqual(defaults);
    const mine = { ...defaults, chat: false, quietStart: "22:00", quietEnd: "07:00" };
    expect((await t.call("PUT", "/push/preferences", { token: a.userToken, body: mine })).body).toEqual(mine);
    expect((await t.call("GET", "/push/preferences", { token: a.userToken })).body).toEqual(mine);
    expect((await t.call("GET", "/push/preferences", { token: b.userToken })).body).toEqual(defaults);
    expect((await t.call("GET", "/push/preferences", { token: b.adminToken })).body).toEqual(defaults);
    expect((await t.call("GET", "/push/preferences", { token: a.adminToken })).body).toEqual(defaults);
    for (const bad of [{ ...mine, quietEnd: null }, { ...mine, quietStart: "25:00" }, { ...mine, chat: "no" }]) {
      expect((await t.call("PUT", "/push/preferences", { token: b.userToken, body: bad })).body.error).toBe("ERR_VALIDATION");
    }
    expect((await t.call("GET", "/push/preferences", { token: a.userToken })).body).toEqual(mine);
    // a spec client's 0/1 booleans are taken as booleans
    const spec = { ...defaults, waiting: 1, message: "1", transfer: "true", chat: 0, announcement: "0" };
    expect((await t.call("PUT", "/push/preferences", { token: a.adminToken, body: spec })).body).toEqual({ ...defaults, chat: false, announcement: false });
    expect((await t.call("PUT", "/push/preferences", { token: a.adminToken, body: defaults })).body).toEqual(defaults);
  });
});
