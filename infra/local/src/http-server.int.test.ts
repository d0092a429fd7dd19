import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../functions/src/testing/factories";
import { createTestApp, type TestApp } from "../../../functions/src/testing/test-app";
import { createPublicServer } from "./http-server";
import { createWsGateway } from "./ws-gateway";

/**
 * The local origin as a user reaches it: a real socket into createPublicServer, the Node adapter and the API.
 * Two loopback source addresses (127.0.0.1 and 127.0.0.2) stand for two machines.
 */
let t: TestApp;
let a: Tenant;
let server: Server;
let port: number;
const webDist = mkdtempSync(join(tmpdir(), "atende-web-"));
const gateway = createWsGateway(async () => ({ statusCode: 200 }));

beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "3" });
  a = await createTenant(t);
  server = createPublicServer({ fetch: t.app.fetch, gateway, webDist, runtimeConfig: () => ({}) });
  port = await new Promise<number>((r) => server.listen(0, "127.0.0.1", () => r((server.address() as { port: number }).port)));
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
  gateway.management.close();
  rmSync(webDist, { recursive: true, force: true });
});

type Sent = { status: number; body: string };
/** One request from `from` (a loopback source address), body written as given. */
export const send = (opts: { from: string; method: string; path: string; headers?: Record<string, string>; body?: string }) =>
  new Promise<Sent>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, localAddress: opts.from, method: opts.method, path: opts.path, headers: { connection: "close", ...opts.headers } },
      (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });

const login = (from: string, email: string, password: string, headers: Record<string, string> = {}) =>
  send({ from, method: "POST", path: "/api/auth/login", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ email, password }) });

describe("local server: the throttles' client address is the socket's", () => {
  it("wrong passwords from one machine do not lock every login on the platform", async () => {
    for (let i = 0; i < 3; i++) expect((await login("127.0.0.3", `alguem${i}@teste.com`, "errada")).status).toBe(401);
    expect((await login("127.0.0.3", a.user.email, a.password)).status).toBe(429);
    expect((await login("127.0.0.4", a.user.email, a.password)).status).toBe(200);
  });

  it("one machine's wrong passwords do not lock another machine's login, and forged headers change nothing", async () => {
    // three failures from 127.0.0.1, each claiming another address in both headers a client could forge
    for (let i = 0; i < 3; i++) {
      const res = await login("127.0.0.1", `ninguem${i}@teste.com`, "errada", { "x-forwarded-for": `5.5.5.${i}`, "cloudfront-viewer-address": `6.6.6.${i}:443` });
      expect(res.status).toBe(401);
    }
    // the same machine is throttled whatever it claims to be
    const forged = await login("127.0.0.1", a.admin.email, a.password, { "x-forwarded-for": "7.7.7.7", "cloudfront-viewer-address": "8.8.8.8:1" });
    expect(forged.status).toBe(429);
    // another machine logs in
    const other = await login("127.0.0.2", a.admin.email, a.password);
    expect(other.status).toBe(200);
  });
});

/** A chunked upload of `total` bytes from one reused 64 KiB chunk; stops writing once the answer arrives. */
const upload = (path: string, headers: Record<string, string>, head: string, total: number) =>
  new Promise<{ status: number; body: string; written: number }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: "POST", path, headers: { ...headers, "transfer-encoding": "chunked", connection: "close" } });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let written = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, written }));
    });
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    const pump = () => {
      while (!answered && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    req.write(head);
    pump();
  });

describe("local server: bodies are capped while streaming", () => {
  it("a 200 MiB chunked upload is refused with 413 without reaching the message service or being read whole", async () => {
    const { token } = await a.login(a.admin.email);
    const messages = t.container.services.messages;
    const original = messages.send;
    let calls = 0;
    messages.send = (...args) => {
      calls++;
      return original(...args);
    };
    try {
      const boundary = "----atende";
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const total = 200 * 1024 * 1024;
      const res = await upload("/api/messages/1", { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` }, head, total);
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toEqual({ error: "ERR_PAYLOAD_TOO_LARGE" });
      expect(calls).toBe(0);
      // the server stopped taking the body (cap, then at most a bounded drain) long before 200 MiB
      expect(res.written).toBeLessThan(total);
    } finally {
      messages.send = original;
    }
  });

  it("a 413 says Connection: close to a keep-alive client, since the server closes the socket after it", async () => {
    const agent = new Agent({ keepAlive: true });
    const answer = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port, agent, method: "POST", path: "/api/auth/login", headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) } },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        },
      );
      req.on("error", reject);
      req.write("{");
    });
    agent.destroy();
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
  });

  it("a JSON body declared larger than 1 MiB on the public login route is refused before it is read", async () => {
    const res = await send({ from: "127.0.0.5", method: "POST", path: "/api/auth/login", headers: { "content-type": "application/json", "content-length": String(200 * 1024 * 1024) }, body: "{" });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: "ERR_PAYLOAD_TOO_LARGE" });
  });
});

