import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app";

const SECRET = "a-generated-secret-of-64-characters-in-aws-0123456789";
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ORIGIN_VERIFY_SECRET: SECRET });
});

describe("only CloudFront may call the API (x-origin-verify)", () => {
  it("refuses a request that did not come through CloudFront", async () => {
    expect(await t.call("GET", "/version")).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect((await t.call("GET", "/version", { headers: { "x-origin-verify": "guess" } })).status).toBe(403);
    // a forged viewer address through the raw API URL never reaches the login throttle
    const forged = await t.call("POST", "/auth/login", { body: { email: "x@y.com", password: "z" }, headers: { "cloudfront-viewer-address": "1.2.3.4:5" } });
    expect(forged.status).toBe(403);
  });
  it("serves a request carrying CloudFront's header", async () => {
    expect(await t.call("GET", "/version", { headers: { "x-origin-verify": SECRET } })).toMatchObject({ status: 200 });
  });
});
