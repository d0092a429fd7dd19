import { afterEach, describe, expect, it } from "vitest";
import type { ConnectionState, MessageUpdate, ProviderEvents, ProviderMessage, ProviderSession } from "@atende/session-host/providers/provider.port";
import { createSimulatorProvider } from "@atende/session-host/providers/simulator/simulator.provider";
import { createSimulatorNetwork } from "./network";
import { memoryPairingStore } from "./network-types";
import { startWireServer } from "./wire-server";

/** The network and the session host's simulator provider, talking over the wire (a WebSocket on loopback). */

const id = { companyId: 1, whatsappId: 2 };
const ref = { companyId: 1, whatsappId: 2 };
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error("condition never met");
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

const setup = async (opts: { failing?: () => boolean } = {}) => {
  const pairing = memoryPairingStore();
  const network = createSimulatorNetwork({ pairing, ackDelayMs: 5, pairingDelayMs: 5, qrRefreshMs: 60_000 });
  const wire = await startWireServer(network);
  const provider = createSimulatorProvider({ url: wire.url, reconnectMs: 50 });
  const states: ConnectionState[] = [];
  const messages: ProviderMessage[] = [];
  const updates: MessageUpdate[] = [];
  const other: string[] = [];
  const events: ProviderEvents = {
    connection: async (s) => void states.push(s),
    message: async (m) => {
      if (opts.failing?.()) throw new Error("queue down");
      messages.push(m);
    },
    messageUpdate: async (u) => void updates.push(u),
    presence: async (p) => void other.push(`presence:${p.presence}`),
    call: async (c) => void other.push(`call:${c.isVideo ? "video" : "voice"}`),
  };
  const auth = { get: async () => ({}), set: async () => undefined, clear: async () => undefined };
  const session: ProviderSession = provider.createSession({ identity: id, events, auth });
  closers.push(async () => {
    await session.stop();
    network.close();
    await wire.close();
  });
  return { network, pairing, session, provider, states, messages, updates, other, wire };
};

const connected = async (s: Awaited<ReturnType<typeof setup>>, number = "5511911112222") => {
  await s.session.start();
  await s.network.scan(ref, number);
  await until(() => s.session.isConnected());
};

describe("simulator: pairing", () => {
  it("shows a QR, then PAIRING and CONNECTED with the phone's number once scanned", async () => {
    const s = await setup();
    await s.session.start();
    expect(s.states.map((x) => x.status)).toEqual(["OPENING", "qrcode"]);
    const qr = s.states[1]?.qrcode ?? "";
    expect(qr).toMatch(/^SIM@1,2,/);
    await s.network.scan({ qr }, "5511911112222");
    await until(() => s.states.length === 4);
    expect(s.states.map((x) => x.status)).toEqual(["OPENING", "qrcode", "PAIRING", "CONNECTED"]);
    expect(s.states.at(-1)).toMatchObject({ number: "5511911112222", qrcode: "" });
    expect(await s.pairing.load()).toEqual([{ companyId: 1, whatsappId: 2, number: "5511911112222" }]);
  });

  it("links by pairing code: the phone of that number enters the code, then PAIRING and CONNECTED", async () => {
    const s = await setup();
    await s.session.start();
    await s.session.requestPairingCode("5511944443333");
    const code = s.states.at(-1)?.pairingCode ?? "";
    expect(code).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/);
    expect(s.network.connections()[0]).toMatchObject({ pairingCodeIssued: true });
    await expect(s.network.enterPairingCode(ref, code, "5511900000000")).rejects.toThrow("wrong code");
    await expect(s.network.enterPairingCode(ref, "AAAAAAAA", "5511944443333")).rejects.toThrow("wrong code");
    expect(s.session.isConnected()).toBe(false);
    await s.network.enterPairingCode(ref, code.toLowerCase(), "+55 11 94444-3333");
    await until(() => s.states.at(-1)?.status === "CONNECTED");
    expect(s.states.slice(-2).map((x) => x.status)).toEqual(["PAIRING", "CONNECTED"]);
    expect(s.states.at(-1)).toMatchObject({ number: "5511944443333" });
    await expect(s.network.enterPairingCode(ref, code, "5511944443333")).rejects.toThrow("not waiting");
  });

  it("a paired connection reconnects without a QR (another session, as after a restart)", async () => {
    const s = await setup();
    await connected(s);
    await s.session.stop();
    const events: ProviderEvents = {
      connection: async (st) => void s.states.push(st),
      message: async () => undefined,
      messageUpdate: async () => undefined,
      presence: async () => undefined,
      call: async () => undefined,
    };
    const again = s.provider.createSession({ identity: id, events, auth: { get: async () => ({}), set: async () => undefined, clear: async () => undefined } });
    s.states.length = 0;
    await again.start();
    expect(s.states.map((x) => x.status)).toEqual(["OPENING", "CONNECTED"]);
    await again.stop();
  });

  it("unlinking from the phone logs the session out", async () => {
    const s = await setup();
    await connected(s);
    await s.network.unlink(ref);
    await until(() => s.states.at(-1)?.status === "DISCONNECTED");
    expect(s.states.at(-1)).toMatchObject({ status: "DISCONNECTED", loggedOut: true });
    expect(s.session.isConnected()).toBe(false);
    expect(await s.pairing.load()).toEqual([]);
    await expect(s.session.send({ messageId: "x", chatJid: "5511988887777@s.whatsapp.net", body: "oi" })).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
  });

  it("a new QR clears the pairing", async () => {
    const s = await setup();
    await connected(s);
    await s.session.requestNewQr();
    expect(s.states.at(-1)?.status).toBe("qrcode");
    expect(s.network.connections()[0]).toMatchObject({ status: "qrcode", number: null });
  });
});

describe("simulator: customers", () => {
  it("send every message type of the spec", async () => {
    const s = await setup();
    await connected(s);
    const n = "5511988887777";
    const first = await s.network.customerSend(n, ref, { type: "text", body: "oi" });
    for (const type of ["image", "audio", "video", "document", "sticker"]) await s.network.customerSend(n, ref, { type, body: type === "image" ? "legenda" : "" });
    await s.network.customerSend(n, ref, { type: "location", latitude: 1, longitude: 2, body: "aqui" });
    await s.network.customerSend(n, ref, { type: "vcard", contactName: "João", contactNumber: "5521999998888" });
    await s.network.customerSend(n, ref, { type: "reaction", targetId: first.id, emoji: "👍" });
    await s.network.customerSend(n, ref, { type: "call" });
    await s.network.customerSend(n, ref, { type: "typing" });
    await until(() => s.messages.length === 9 && s.other.length === 2);
    expect(s.messages.map((m) => m.type)).toEqual(["chat", "image", "audio", "video", "document", "sticker", "locationMessage", "contactMessage", "reactionMessage"]);
    expect(s.messages[1]).toMatchObject({ body: "legenda", media: { mimetype: "image/png" } });
    expect((await s.messages[1]!.media!.download()).subarray(1, 4).toString()).toBe("PNG");
    expect(s.messages[4]).toMatchObject({ body: "documento.pdf", media: { mimetype: "application/pdf", filename: "documento.pdf" } });
    expect(s.messages[6]?.body).toBe("|https://maps.google.com/maps?q=1%2C2&z=17&hl=pt-BR|aqui");
    expect(s.messages[7]?.body).toContain("waid=5521999998888");
    expect(s.messages[8]?.reaction).toEqual({ targetId: first.id, emoji: "👍" });
    expect(s.messages[0]?.sender).toMatchObject({ number: n, jid: `${n}@s.whatsapp.net` });
    expect(s.other).toEqual(["call:voice", "presence:composing"]);
  });

  it("edits and deletes their own messages", async () => {
    const s = await setup();
    await connected(s);
    const m = await s.network.customerSend("5511988887777", ref, { type: "text", body: "errado" });
    await s.network.customerSend("5511988887777", ref, { type: "edit", targetId: m.id, body: "certo" });
    await s.network.customerSend("5511988887777", ref, { type: "delete", targetId: m.id });
    await until(() => s.updates.length === 2);
    expect(s.updates).toEqual([
      { messageId: m.id, chatJid: "5511988887777@s.whatsapp.net", body: "certo" },
      { messageId: m.id, chatJid: "5511988887777@s.whatsapp.net", isDeleted: true },
    ]);
  });

  it("receive replies once (a retried id is dropped) and acknowledge delivered then read", async () => {
    const s = await setup();
    await connected(s);
    const chatJid = "5511988887777@s.whatsapp.net";
    await s.session.send({ messageId: "OUT1", chatJid, body: "Olá!" });
    await s.session.send({ messageId: "OUT1", chatJid, body: "Olá!" });
    await until(() => s.updates.length === 2);
    expect(s.updates.map((u) => u.ack)).toEqual([3, 4]);
    const chat = s.network.chat("5511988887777", ref);
    expect(chat.messages.map((m) => [m.id, m.ack])).toEqual([["OUT1", 4]]);
  });

  it("acknowledge on demand when automatic receipts are off", async () => {
    const s = await setup();
    await connected(s);
    s.network.upsertCustomer("5511977776666", "Ana", false);
    await s.session.send({ messageId: "OUT2", chatJid: "5511977776666@s.whatsapp.net", body: "1" });
    await new Promise((r) => setTimeout(r, 30));
    expect(s.updates).toEqual([]);
    s.network.customerAck("5511977776666", ref, 4);
    await until(() => s.updates.length === 2);
    expect(s.updates.map((u) => u.ack)).toEqual([3, 4]);
  });

  it("keeps what the business could not make durable and delivers it again, in order", async () => {
    let down = true;
    const s = await setup({ failing: () => down });
    await connected(s);
    for (const body of ["1", "2", "3"]) await s.network.customerSend("5511988887777", ref, { type: "text", body });
    await new Promise((r) => setTimeout(r, 50));
    expect(s.messages).toEqual([]);
    expect(s.network.connections()[0]?.pending).toBe(3);
    down = false;
    await until(() => s.messages.length === 3);
    expect(s.messages.map((m) => m.body)).toEqual(["1", "2", "3"]);
    await until(() => s.network.connections()[0]?.pending === 0); // acknowledged back over the wire
  });

  it("checks numbers", async () => {
    const s = await setup();
    await connected(s);
    expect(await s.session.checkNumber("+55 (11) 98888-7777")).toEqual({ exists: true, jid: "5511988887777@s.whatsapp.net" });
    expect(await s.session.checkNumber("5511900000")).toEqual({ exists: false });
  });

  it("refuses messages to a connection that is not paired", async () => {
    const s = await setup();
    await s.session.start();
    await expect(s.network.customerSend("5511988887777", ref, { type: "text", body: "oi" })).rejects.toMatchObject({ status: 409 });
  });
});

describe("simulator: the network outside the hosts", () => {
  it("holds what customers send while no host is attached and delivers it on reconnect, in order (WhatsApp's offline queue)", async () => {
    const s = await setup();
    await connected(s);
    await s.session.stop(); // the host died or hands over: its socket is gone
    await until(() => s.network.connections()[0]?.status === "offline");
    for (const body of ["a", "b", "c", "d"]) await s.network.customerSend("5511988887777", ref, { type: "text", body });
    expect(s.network.connections()[0]?.pending).toBe(4);
    expect(s.messages).toEqual([]);
    await s.session.start(); // a host attaches again (the same or another one)
    await until(() => s.messages.length === 4);
    expect(s.messages.map((m) => m.body)).toEqual(["a", "b", "c", "d"]);
    await until(() => s.network.connections()[0]?.pending === 0); // acknowledged back over the wire
  });

  it("a newer session of the same connection replaces the older one, which stops driving it", async () => {
    const s = await setup();
    await connected(s);
    const events: ProviderEvents = { connection: async () => undefined, message: async () => undefined, messageUpdate: async () => undefined, presence: async () => undefined, call: async () => undefined };
    const newer = s.provider.createSession({ identity: id, events, auth: { get: async () => ({}), set: async () => undefined, clear: async () => undefined } });
    await newer.start();
    await until(() => !s.session.isConnected());
    expect(newer.isConnected()).toBe(true);
    await expect(s.session.send({ messageId: "old", chatJid: "5511988887777@s.whatsapp.net", body: "x" })).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    await newer.send({ messageId: "new", chatJid: "5511988887777@s.whatsapp.net", body: "y" });
    expect(s.network.chat("5511988887777", ref).messages.map((m) => m.id)).toEqual(["new"]);
    await newer.stop();
  });

  it("a session dials again when the network went away and came back", async () => {
    const s = await setup();
    await connected(s);
    const port = s.wire.port;
    await s.wire.close();
    await until(() => !s.session.isConnected());
    const again = await startWireServer(s.network, { port });
    closers.push(again.close);
    await until(() => s.session.isConnected());
  });

  it("plays a passkey-walled phone: linking stops at passkey_prologue_request and the session reports PASSKEY_REQUIRED", async () => {
    const s = await setup();
    await s.session.start();
    const result = await s.network.scan(ref, "5511955554444", { passkey: true });
    expect(result).toEqual({ number: null, passkeyRequired: true });
    await until(() => s.states.at(-1)?.status === "PASSKEY_REQUIRED");
    expect(s.states.map((x) => x.status)).toEqual(["OPENING", "qrcode", "PAIRING", "PASSKEY_REQUIRED"]);
    expect(s.session.isConnected()).toBe(false);
    expect(await s.pairing.load()).toEqual([]);
    expect(s.network.connections()[0]).toMatchObject({ status: "PASSKEY_REQUIRED", number: null });
    // a new QR lets another phone (or the same after the owner's choice) try again
    await s.session.requestNewQr();
    expect(s.states.at(-1)?.status).toBe("qrcode");
  });
});
