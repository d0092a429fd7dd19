import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createPublicServer } from "./http-server";
import { createWsGateway, type WsRouteEvent } from "./ws-gateway";

/**
 * Hostile frames on the local gateway (issue 27, finding 2): a frame over the limit closes that socket with 1009,
 * text that is not UTF-8 with 1007, garbage on the wire with a protocol error, and every other socket (and the
 * process: an unhandled 'error' fails this run) goes on. Both public paths, /ws and /socket.io/, reach the gateway.
 */
const events: WsRouteEvent[] = [];
let server: Server;
let port: number;
let gateway: ReturnType<typeof createWsGateway>;

beforeAll(async () => {
  gateway = createWsGateway(
    async (event) => {
      events.push(event);
      return { statusCode: 200 };
    },
    { warn: () => undefined },
  );
  server = createPublicServer({ fetch: () => new Response("ok"), gateway, webDist: "/nonexistent", runtimeConfig: () => ({}) });
  port = await new Promise<number>((r) => server.listen(0, "127.0.0.1", () => r((server.address() as { port: number }).port)));
});

afterAll(() => {
  gateway.closeAll();
  server.close();
});

const PATHS = ["/ws?token=t", "/socket.io/?EIO=4&transport=websocket&token=t"];
const open = (path: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
const closeCode = (ws: WebSocket) => new Promise<number>((r) => ws.once("close", (code) => r(code)));
/** The socket still carries frames both ways: a frame reaches $default. */
const stillWorks = async (ws: WebSocket) => {
  const marker = randomBytes(6).toString("hex");
  ws.send(marker);
  for (let i = 0; i < 50 && !events.some((e) => e.body === marker); i++) await new Promise((r) => setTimeout(r, 20));
  return events.some((e) => e.body === marker);
};

describe("local gateway: hostile frames close one socket, never the process", () => {
  for (const path of PATHS) {
    it(`a text frame over 128 KiB closes that socket with 1009 (${path.split("?")[0]})`, async () => {
      const bystander = await open(path);
      const ws = await open(path);
      ws.on("error", () => undefined);
      const closed = closeCode(ws);
      ws.send("x".repeat(129 * 1024));
      expect(await closed).toBe(1009);
      expect(await stillWorks(bystander)).toBe(true);
      bystander.close();
    });

    it(`a text frame that is not UTF-8 closes that socket with 1007 (${path.split("?")[0]})`, async () => {
      const bystander = await open(path);
      const ws = await open(path);
      ws.on("error", () => undefined);
      const closed = closeCode(ws);
      ws.send(Buffer.from([0x68, 0x69, 0xff, 0xfe, 0xc3, 0x28]), { binary: false });
      expect(await closed).toBe(1007);
      expect(await stillWorks(bystander)).toBe(true);
      bystander.close();
    });
  }

  it("survives 200 sockets of random bytes on the wire (fuzz), and a fresh socket works after them", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 200; i++) {
      const ws = await open(PATHS[i % 2]!);
      ws.on("error", () => undefined);
      const closed = closeCode(ws);
      // random frames straight on the TCP socket: bad opcodes, reserved bits, unmasked client frames, huge lengths
      const raw = (ws as unknown as { _socket: { write: (b: Buffer) => void } })._socket;
      raw.write(randomBytes(1 + Math.floor(Math.random() * 2048)));
      const timer = setTimeout(() => ws.terminate(), 500);
      codes.push(await closed);
      clearTimeout(timer);
    }
    expect(codes.length).toBe(200);
    const fresh = await open(PATHS[0]!);
    expect(await stillWorks(fresh)).toBe(true);
    fresh.close();
  });

  it("a client that resets during $connect does not take the process down", async () => {
    const slow = createWsGateway(
      async () => {
        await new Promise((r) => setTimeout(r, 100));
        return { statusCode: 200 };
      },
      { warn: () => undefined },
    );
    const s = createPublicServer({ fetch: () => new Response("ok"), gateway: slow, webDist: "/nonexistent", runtimeConfig: () => ({}) });
    const p = await new Promise<number>((r) => s.listen(0, "127.0.0.1", () => r((s.address() as { port: number }).port)));
    for (let i = 0; i < 5; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${p}/ws`);
      ws.on("error", () => undefined);
      setTimeout(() => ws.terminate(), 10);
    }
    await new Promise((r) => setTimeout(r, 300));
    const ok = new WebSocket(`ws://127.0.0.1:${p}/ws`);
    await new Promise<void>((resolve, reject) => (ok.once("open", () => resolve()), ok.once("error", reject)));
    ok.close();
    slow.closeAll();
    s.close();
  });
});
