import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { classifyAddress, isMetadataAddress, isPublicAddress } from "./address-policy";
import { createCheckedLookup, createOutbound, OutboundBodyTooLargeError } from "./outbound-fetch";
import { PrivateUrlError } from "./public-url-guard";

/**
 * The outbound guard (docs/adr/0062) against a real HTTP server on 127.0.0.1. To play "public" and "private"
 * addresses on one machine, the tests give the guard a policy that lets 127.0.0.1 through and refuses the rest of
 * loopback, and a resolver with made-up names; the production policy is tested on its own below.
 */
let server: Server;
let port = 0;
const seen: { path: string; authorization?: string }[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const path = req.url ?? "/";
    seen.push({ path, authorization: req.headers.authorization });
    if (path === "/ok") return void res.end("ok");
    if (path === "/to-private-name") return void res.writeHead(302, { location: `http://private.test:${port}/secret` }).end();
    if (path === "/to-private-ip") return void res.writeHead(302, { location: `http://127.0.0.9:${port}/secret` }).end();
    if (path === "/to-metadata") return void res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (path === "/to-other-origin") return void res.writeHead(302, { location: `http://public2.test:${port}/ok` }).end();
    if (path === "/loop") return void res.writeHead(302, { location: "/loop" }).end();
    if (path === "/big-declared") return void res.writeHead(200, { "content-length": String(2 * 1024 * 1024) }).end(Buffer.alloc(2 * 1024 * 1024));
    if (path === "/big-streamed") {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(256 * 1024);
      let n = 0;
      const more = () => {
        while (n < 16 && res.write(chunk)) n++;
        if (n >= 16) res.end();
        else res.once("drain", () => (n++, more()));
      };
      return more();
    }
    if (path === "/slow") return; // never answers
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const names: Record<string, string> = { "public.test": "127.0.0.1", "public2.test": "127.0.0.1", "private.test": "127.0.0.2", "meta.test": "169.254.169.254" };
const resolveAll = async (host: string) => (names[host] ? [{ address: names[host]!, family: 4 }] : []);
const onlyOne = (ip: string) => ip === "127.0.0.1";
const guarded = (over: Partial<Parameters<typeof createOutbound>[0]> = {}) => createOutbound({ on: true, resolveAll, allowAddress: onlyOne, ...over });

describe("the address classifier (ipaddr.js ranges)", () => {
  it("lets only public unicast addresses through", () => {
    const refused = [
      "127.0.0.1", "127.255.255.254", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.10", "169.254.169.254", "169.254.0.1",
      "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "240.0.0.1", "198.18.0.1", "192.0.2.1",
      "::1", "::", "fd00::1", "fd00:ec2::254", "fc00::1", "fe80::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
      "64:ff9b::7f00:1", "2002:7f00:1::1", "2001::1", "[::1]", "not-an-ip", "",
    ];
    for (const ip of refused) expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ["8.8.8.8", "172.32.0.1", "200.147.67.142", "2804:14c::1", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(isPublicAddress(ip), ip).toBe(true);
    expect(classifyAddress("::ffff:127.0.0.1")).toBe("loopback");
    expect(classifyAddress("100.64.0.1")).toBe("carrierGradeNat");
  });

  it("names the metadata services (link-local, AWS's IPv6 one) and nothing else", () => {
    for (const ip of ["169.254.169.254", "169.254.170.2", "fe80::a9fe:a9fe", "fd00:ec2::254", "[fd00:ec2:0::254]", "::ffff:169.254.169.254"]) expect(isMetadataAddress(ip), ip).toBe(true);
    for (const ip of ["127.0.0.1", "10.0.0.1", "8.8.8.8", "fd00::1", "example.com"]) expect(isMetadataAddress(ip), ip).toBe(false);
  });
});

describe("the guarded fetch", () => {
  it("refuses loopback literals and localhost names with the guard on, before any request; calls them with it off", async () => {
    seen.length = 0;
    const on = createOutbound({ on: true });
    await expect(on.fetch(`http://127.0.0.1:${port}/ok`)).rejects.toBeInstanceOf(PrivateUrlError);
    await expect(on.fetch(`http://localhost:${port}/ok`)).rejects.toBeInstanceOf(PrivateUrlError);
    await expect(on.fetch(`http://[::ffff:127.0.0.1]:${port}/ok`)).rejects.toBeInstanceOf(PrivateUrlError);
    await expect(on.fetch("file:///etc/passwd")).rejects.toBeInstanceOf(PrivateUrlError);
    expect(seen).toEqual([]);
    const off = createOutbound({ on: false });
    expect(await (await off.fetch(`http://127.0.0.1:${port}/ok`)).text()).toBe("ok");
  });

  it("refuses a name that resolves to a refused address, inside the connection", async () => {
    seen.length = 0;
    await expect(guarded().fetch(`http://private.test:${port}/ok`)).rejects.toThrow(/resolves to 127\.0\.0\.2/);
    expect(seen).toEqual([]);
    expect(await (await guarded().fetch(`http://public.test:${port}/ok`)).text()).toBe("ok");
  });

  it("follows redirects by hand, each hop checked: a redirect to a refused name, IP or the metadata service is not fetched", async () => {
    seen.length = 0;
    const out = guarded();
    await expect(out.fetch(`http://public.test:${port}/to-private-name`)).rejects.toBeInstanceOf(PrivateUrlError);
    await expect(out.fetch(`http://public.test:${port}/to-private-ip`)).rejects.toBeInstanceOf(PrivateUrlError);
    await expect(out.fetch(`http://public.test:${port}/to-metadata`)).rejects.toBeInstanceOf(PrivateUrlError);
    expect(seen.map((s) => s.path)).toEqual(["/to-private-name", "/to-private-ip", "/to-metadata"]);
    await expect(out.fetch(`http://public.test:${port}/loop`)).rejects.toThrow(/more than 3 redirects/);
  });

  it("drops the credentials when a redirect leaves the origin; answers a redirect as is when told not to follow", async () => {
    seen.length = 0;
    const out = guarded();
    const res = await out.fetch(`http://public.test:${port}/to-other-origin`, { headers: { authorization: "Bearer SECRET" } });
    expect(await res.text()).toBe("ok");
    expect(seen).toEqual([
      { path: "/to-other-origin", authorization: "Bearer SECRET" },
      { path: "/ok", authorization: undefined },
    ]);
    const manual = await out.fetch(`http://public.test:${port}/to-private-name`, { redirect: "manual" });
    expect(manual.status).toBe(302);
  });

  it("caps the answer: a declared length over the cap fails at once, a streamed one stops past the cap", async () => {
    const out = guarded();
    await expect(out.fetch(`http://public.test:${port}/big-declared`, { maxBodyBytes: 1024 * 1024 })).rejects.toBeInstanceOf(OutboundBodyTooLargeError);
    const streamed = await out.fetch(`http://public.test:${port}/big-streamed`, { maxBodyBytes: 1024 * 1024 });
    await expect(streamed.arrayBuffer()).rejects.toBeInstanceOf(OutboundBodyTooLargeError);
    const whole = await out.fetch(`http://public.test:${port}/big-streamed`, { maxBodyBytes: 8 * 1024 * 1024 });
    expect((await whole.arrayBuffer()).byteLength).toBe(16 * 256 * 1024);
  });

  it("gives up after its time limit", async () => {
    await expect(guarded().fetch(`http://public.test:${port}/slow`, { timeoutMs: 300 })).rejects.toThrow(/abort|timeout/i);
  });
});

describe("DNS rebinding", () => {
  it("a name that answers an allowed address to the early check and a refused one next is refused at connection time", async () => {
    seen.length = 0;
    let calls = 0;
    const rebinding = async () => [{ address: calls++ === 0 ? "127.0.0.1" : "127.0.0.2", family: 4 }];
    const out = guarded({ resolveAll: rebinding });
    await expect(out.guard(`http://rebind.test:${port}/ok`)).resolves.toBeUndefined();
    await expect(out.fetch(`http://rebind.test:${port}/ok`)).rejects.toThrow(/resolves to 127\.0\.0\.2/);
    expect(seen).toEqual([]);
  });

  it("resolves once per connection and hands the connection exactly the addresses it checked", async () => {
    let calls = 0;
    const answers = [[{ address: "127.0.0.1", family: 4 }], [{ address: "127.0.0.2", family: 4 }]];
    const lookup = createCheckedLookup({ on: true, resolveAll: async () => answers[Math.min(calls++, 1)]!, allowAddress: onlyOne });
    const one = await new Promise<unknown[]>((r) => lookup("x.test", { all: false }, (...args: unknown[]) => r(args)));
    expect(one).toEqual([null, "127.0.0.1", 4]);
    expect(calls).toBe(1);
    const two = await new Promise<unknown[]>((r) => lookup("x.test", { all: true }, (...args: unknown[]) => r(args)));
    expect(two[0]).toBeInstanceOf(PrivateUrlError);
    expect(calls).toBe(2);
    // a mixed answer (one allowed, one refused) is refused whole: the socket could pick either
    const mixed = createCheckedLookup({ on: true, resolveAll: async () => [{ address: "127.0.0.1", family: 4 }, { address: "127.0.0.2", family: 4 }], allowAddress: onlyOne });
    expect((await new Promise<unknown[]>((r) => mixed("m.test", { all: true }, (...args: unknown[]) => r(args))))[0]).toBeInstanceOf(PrivateUrlError);
  });

  it("connects to the checked address: the server sees one request per fetch, and the resolver one call per new connection", async () => {
    seen.length = 0;
    let calls = 0;
    const out = guarded({ resolveAll: async () => (calls++, [{ address: "127.0.0.1", family: 4 }]) });
    expect(await (await out.fetch(`http://counted.test:${port}/ok`)).text()).toBe("ok");
    expect(seen.map((s) => s.path)).toEqual(["/ok"]);
    expect(calls).toBe(1);
  });
});

describe("the checking lookup on node:http(s) requests (the Efí adapter's mTLS calls)", () => {
  const get = (host: string, lookup: ReturnType<typeof guarded>["lookup"]) =>
    new Promise<string>((resolve, reject) => {
      const req = request({ host, port, path: "/ok", lookup }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve(body));
      });
      req.on("error", reject);
      req.end();
    });

  it("connects to a name whose addresses pass and refuses one that resolves to a refused address", async () => {
    seen.length = 0;
    const { lookup } = guarded();
    expect(await get("public.test", lookup)).toBe("ok");
    await expect(get("private.test", lookup)).rejects.toBeInstanceOf(PrivateUrlError);
    expect(seen.map((x) => x.path)).toEqual(["/ok"]);
  });
});

describe("the save-time check", () => {
  const codeOf = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (e instanceof AppError ? e.code : String(e)));

  it("refuses the metadata services whatever the switch says; loopback and private only with the guard on", async () => {
    for (const on of [false, true]) {
      const out = createOutbound({ on, resolveAll });
      expect(await codeOf(out.checkSavedUrl("http://169.254.169.254/latest/meta-data/")), `on=${on}`).toBe("ERR_URL_NOT_ALLOWED");
      expect(await codeOf(out.checkSavedUrl("http://[fd00:ec2::254]/")), `on=${on}`).toBe("ERR_URL_NOT_ALLOWED");
      expect(await codeOf(out.checkSavedUrl("https://meta.test/hook")), `on=${on}`).toBe("ERR_URL_NOT_ALLOWED");
      expect(await codeOf(out.checkSavedUrl("https://unknown.example/hook"))).toBeNull();
      expect(await codeOf(out.checkSavedUrl(""))).toBeNull();
    }
    const off = createOutbound({ on: false, resolveAll });
    expect(await codeOf(off.checkSavedUrl(`http://127.0.0.1:${port}/simulator/typebot`))).toBeNull();
    const on = createOutbound({ on: true, resolveAll });
    for (const url of [`http://127.0.0.1:${port}/`, "http://localhost:8080/", "http://10.0.0.5/", "https://private.test/"]) expect(await codeOf(on.checkSavedUrl(url)), url).toBe("ERR_URL_NOT_ALLOWED");
  });
});
