import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { MAX_JSON_BODY_BYTES, MAX_MULTIPART_BODY_BYTES } from "./body-limit";

/**
 * Bodies are capped before parsing (body-limit.ts) and JSON routes take only JSON (parse.ts).
 * A spy on the service a route calls shows whether the route ever got the body.
 */
let t: TestApp;
let a: Tenant;
const spies: (() => void)[] = [];
const spy = <O extends object, K extends keyof O>(obj: O, key: K) => {
  const original = obj[key] as (...args: unknown[]) => unknown;
  const calls: unknown[][] = [];
  obj[key] = ((...args: unknown[]) => {
    calls.push(args);
    return original.apply(obj, args);
  }) as O[K];
  spies.push(() => (obj[key] = original as O[K]));
  return calls;
};
afterEach(() => spies.splice(0).forEach((restore) => restore()));

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
});

/** A body of `total` bytes made on demand from one small chunk, with no Content-Length (chunked). */
const streamOf = (total: number, head = "", chunk = new Uint8Array(64 * 1024).fill(0x61)) => {
  let sent = 0;
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0 && head) {
        const h = new TextEncoder().encode(head);
        sent += h.length;
        controller.enqueue(h);
        return;
      }
      if (sent >= total) return controller.close();
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      pulled += n;
      controller.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
  return { stream, pulled: () => pulled };
};

const send = async (path: string, init: RequestInit) => {
  const res = await t.app.request(`/api${path}`, { duplex: "half", ...init } as RequestInit, { incoming: { socket: { remoteAddress: "127.0.0.1" } } });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as { error?: string } | undefined };
};

describe("request bodies are capped before parsing (413 ERR_PAYLOAD_TOO_LARGE)", () => {
  it("a JSON body declared over 1 MiB is refused before the route runs", async () => {
    const login = spy(t.container.services.auth, "login");
    const big = JSON.stringify({ email: a.admin.email, password: a.password, pad: "x".repeat(MAX_JSON_BODY_BYTES) });
    const res = await send("/auth/login", { method: "POST", headers: { "content-type": "application/json", "content-length": String(big.length) }, body: big });
    expect(res).toEqual({ status: 413, body: { error: "ERR_PAYLOAD_TOO_LARGE" } });
    expect(login).toHaveLength(0);
  });

  it("a chunked JSON body is cut at the cap: the route never gets it and no more than the cap is read", async () => {
    const login = spy(t.container.services.auth, "login");
    const body = streamOf(200 * 1024 * 1024, `{"email":"${a.admin.email}","password":"${a.password}","pad":"`);
    const res = await send("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: body.stream });
    expect(res).toEqual({ status: 413, body: { error: "ERR_PAYLOAD_TOO_LARGE" } });
    expect(login).toHaveLength(0);
    // the reader stopped one chunk past the cap: 200 MiB were never pulled into the process
    expect(body.pulled()).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES + 64 * 1024);
  });

  it("a legitimate JSON body just under the cap still works", async () => {
    const login = spy(t.container.services.auth, "login");
    const body = JSON.stringify({ email: a.admin.email, password: a.password, pad: "x".repeat(MAX_JSON_BODY_BYTES - 200) });
    const res = await send("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(res.status).toBe(200);
    expect(login).toHaveLength(1);
  });

  it("a chunked multipart upload over the cap is refused and the message service never sees it", async () => {
    const { token } = await a.login(a.admin.email);
    const sendMessage = spy(t.container.services.messages, "send");
    const boundary = "----atende";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const body = streamOf(MAX_MULTIPART_BODY_BYTES + 8 * 1024 * 1024, head);
    const res = await send("/messages/1", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: body.stream,
    });
    expect(res).toEqual({ status: 413, body: { error: "ERR_PAYLOAD_TOO_LARGE" } });
    expect(sendMessage).toHaveLength(0);
    expect(body.pulled()).toBeLessThanOrEqual(MAX_MULTIPART_BODY_BYTES + 64 * 1024);
  });

  it("a small multipart upload reaches the service (the spy sees it)", async () => {
    const { token } = await a.login(a.admin.email);
    const sendMessage = spy(t.container.services.messages, "send");
    const form = new FormData();
    form.append("medias", new Blob([new Uint8Array([1, 2, 3])]), "a.bin");
    form.append("body", "oi");
    const res = await send("/messages/999999", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    expect(res.body?.error).toBe("ERR_NO_TICKET_FOUND");
    expect(sendMessage).toHaveLength(1);
  });
});

describe("JSON routes take only JSON", () => {
  const json = (email: string, password: string) => JSON.stringify({ email, password });
  it("a JSON body sent as text/plain (or as a form, or undeclared) is 415 and never parsed", async () => {
    const login = spy(t.container.services.auth, "login");
    for (const type of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "application/jsonp", "application/json-patch"]) {
      const res = await send("/auth/login", { method: "POST", headers: { "content-type": type }, body: json(a.admin.email, a.password) });
      expect(res, type).toEqual({ status: 415, body: { error: "ERR_UNSUPPORTED_CONTENT_TYPE" } });
    }
    // a Blob with no type: the request carries no Content-Type at all
    const undeclared = await send("/auth/login", { method: "POST", body: new Blob([json(a.admin.email, a.password)]) });
    expect(undeclared).toEqual({ status: 415, body: { error: "ERR_UNSUPPORTED_CONTENT_TYPE" } });
    expect(login).toHaveLength(0);
  });
  it("application/json with a charset and application/*+json are JSON", async () => {
    for (const type of ["application/json; charset=utf-8", "application/merge-patch+json"]) {
      const res = await send("/auth/login", { method: "POST", headers: { "content-type": type }, body: json(a.user.email, a.password) });
      expect(res.status, type).toBe(200);
    }
  });
  it("an empty body without a Content-Type is still ERR_VALIDATION", async () => {
    expect(await send("/auth/login", { method: "POST" })).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
  });
});
