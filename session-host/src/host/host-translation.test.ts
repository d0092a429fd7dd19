import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import { createLocalMediaStore } from "../media/local-media.store";
import { createLogger } from "../platform/logger";
import type { ProviderEvents, ProviderSession } from "../providers/provider.port";
import { createSimulatorProvider } from "../providers/simulator/simulator.provider";
import { startSimulatedNetwork, type SimulatedNetwork } from "../testing/simulated-network";
import { executeCommand, failureEvent } from "./command-executor";
import { createEventEmitter } from "./event-emitter";

const identity = { companyId: 4, whatsappId: 9 };
const media = createLocalMediaStore(mkdtempSync(join(tmpdir(), "sh-unit-")));
const published: { event: InboundEvent; chatJid?: string }[] = [];
const publisher = { publish: async (event: InboundEvent, chatJid?: string) => void published.push({ event, chatJid }) };
const emitter = (alive = () => true) => createEventEmitter({ identity, publisher, media, logger: createLogger("silent"), alive });

const base = { chatJid: "5511988887777@s.whatsapp.net", fromMe: false, isGroup: false, sender: { jid: "5511988887777@s.whatsapp.net", number: "5511988887777" }, isForwarded: false, timestamp: 1 };

describe("provider events -> inbound events", () => {
  it("stores media first and sends a MediaRef under companyId/yyyy/mm/random-filename", async () => {
    published.length = 0;
    await emitter().message({ ...base, id: "M1", type: "document", body: "boleto", media: { mimetype: "application/pdf", filename: "boleto final.pdf", download: async () => Buffer.from("%PDF") } });
    const { event, chatJid } = published[0]!;
    expect(chatJid).toBe(base.chatJid);
    expect(event).toMatchObject({ type: "message", eventId: "M1", companyId: 4, whatsappId: 9 });
    const ref = (event as Extract<InboundEvent, { type: "message" }>).message.media!;
    expect(ref.key).toMatch(/^4\/\d{4}\/\d{2}\/[0-9a-f]{16}-boleto_final\.pdf$/);
    expect(ref).toMatchObject({ mimetype: "application/pdf", filename: "boleto final.pdf", size: 4 });
    expect((await media.get(ref.key)).toString()).toBe("%PDF");
  });

  it("a customer's 'image' whose bytes are an SVG is stored and sent on as a document typed by its content", async () => {
    published.length = 0;
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await emitter().message({ ...base, id: "M3", type: "image", body: "", media: { mimetype: "image/jpeg", filename: "foto.jpg", download: async () => svg } });
    const message = (published[0]?.event as Extract<InboundEvent, { type: "message" }>).message;
    expect(message).toMatchObject({ id: "M3", type: "document", media: { mimetype: "image/svg+xml", filename: "foto.jpg" } });
    // a real JPEG stays an image, typed by its bytes whatever was declared
    published.length = 0;
    await emitter().message({ ...base, id: "M4", type: "image", body: "", media: { mimetype: "image/png", download: async () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]) } });
    expect((published[0]?.event as Extract<InboundEvent, { type: "message" }>).message).toMatchObject({ type: "image", media: { mimetype: "image/jpeg" } });
  });

  it("media that cannot be downloaded still delivers the message, without media", async () => {
    published.length = 0;
    await emitter().message({ ...base, id: "M2", type: "image", body: "foto", media: { mimetype: "image/jpeg", download: async () => Promise.reject(new Error("410 gone")) } });
    expect((published[0]?.event as Extract<InboundEvent, { type: "message" }>).message).toMatchObject({ id: "M2", body: "foto" });
    expect((published[0]?.event as Extract<InboundEvent, { type: "message" }>).message.media).toBeUndefined();
  });

  it("gives a chat's messages increasing seqs in the order handed over, and publishes them in that order even when an earlier one waits for its media (docs/adr/0066)", async () => {
    published.length = 0;
    const e = emitter();
    let release!: () => void;
    const slow = new Promise<Buffer>((r) => (release = () => r(Buffer.from("%PDF"))));
    const other = { ...base, chatJid: "5511977776666@s.whatsapp.net" };
    // handed over together, as the simulator hands a window of deliveries over: the document's download is slow
    const all = Promise.all([
      e.message({ ...base, id: "S1", type: "document", body: "primeira", media: { mimetype: "application/pdf", filename: "a.pdf", download: () => slow } }),
      e.message({ ...base, id: "S2", type: "chat", body: "segunda" }),
      e.message({ ...other, id: "O1", type: "chat", body: "outro chat" }),
      e.message({ ...base, id: "S3", type: "chat", body: "terceira" }),
    ]);
    await new Promise((r) => setTimeout(r, 20));
    // another chat is not held behind the slow download; this chat is
    expect(published.map((p) => p.event.eventId)).toEqual(["O1"]);
    release();
    await all;
    const messages = published.map((p) => (p.event as Extract<InboundEvent, { type: "message" }>).message);
    expect(messages.map((m) => m.id)).toEqual(["O1", "S1", "S2", "S3"]);
    const seqOf = (id: string) => messages.find((m) => m.id === id)!.seq!;
    expect(seqOf("S1")).toBeLessThan(seqOf("S2"));
    expect(seqOf("S2")).toBeLessThan(seqOf("O1"));
    expect(seqOf("O1")).toBeLessThan(seqOf("S3"));
    // a later host (a restart, a takeover) starts above: the sequence is a clock in ms
    expect(seqOf("S3")).toBeLessThanOrEqual(Date.now() + 10);
    expect(seqOf("S1")).toBeGreaterThan(Date.now() - 60_000);
  });

  it("updates get stable event ids (a redelivery is deduplicated); a lost session publishes nothing", async () => {
    published.length = 0;
    await emitter().messageUpdate({ messageId: "M1", chatJid: base.chatJid, ack: 3 });
    await emitter().messageUpdate({ messageId: "M1", chatJid: base.chatJid, isDeleted: true });
    expect(published.map((p) => p.event.eventId)).toEqual(["M1:ack3", "M1:del"]);
    await expect(emitter(() => false).call({ callId: "C1", from: base.chatJid, isVideo: false })).rejects.toThrow();
    expect(published).toHaveLength(2);
  });
});

describe("commands -> provider", () => {
  // the simulated network in its own process, dialled over the wire (a fresh one per test would cost a start each)
  let network: SimulatedNetwork;
  const sessions: ProviderSession[] = [];
  beforeAll(async () => {
    network = await startSimulatedNetwork({ ackDelayMs: 5, pairingDelayMs: 1 });
  });
  afterAll(async () => {
    for (const s of sessions) await s.stop();
    await network?.close();
  });
  let nextWhatsapp = 100;
  /** a fresh connection on the network per test (its chats and contacts start empty) */
  const connected = async () => {
    const events: ProviderEvents = { connection: async () => undefined, message: async () => undefined, messageUpdate: async () => undefined, presence: async () => undefined, call: async () => undefined };
    const id = { companyId: 4, whatsappId: ++nextWhatsapp };
    const session: ProviderSession = createSimulatorProvider({ url: network.wireUrl }).createSession({ identity: id, events, auth: { get: async () => ({}), set: async () => undefined, clear: async () => undefined } });
    sessions.push(session);
    await session.start();
    await network.scan(id, "5511900009999");
    return { network, session, id };
  };
  const cmd = { companyId: 4, whatsappId: 9 };

  it("sends media the functions stored, quoted, and reports ok with the message id", async () => {
    const { network, session, id } = await connected();
    await media.put("4/2026/11/abc-foto.png", Buffer.from("png"), "image/png");
    const result = await executeCommand(
      session,
      { ...cmd, type: "send", commandId: "c1", messageId: "OUT9", chatJid: "5511977776666@s.whatsapp.net", body: "legenda", quotedId: "X", media: { key: "4/2026/11/abc-foto.png", mimetype: "image/png", kind: "image" } },
      media,
    );
    expect(result).toMatchObject({ type: "command.result", eventId: "result:c1", ok: true, messageId: "OUT9" });
    expect((await network.chat("5511977776666", id)).messages[0]).toMatchObject({ id: "OUT9", type: "image", body: "legenda", quotedId: "X", media: { key: "4/2026/11/abc-foto.png" } });
  });

  it("answers a number check with number.checked", async () => {
    const { session } = await connected();
    const result = await executeCommand(session, { ...cmd, type: "checkNumber", commandId: "c2", requestId: "r1", number: "5511977776666" }, media);
    expect(result).toMatchObject({ type: "number.checked", requestId: "r1", exists: true, jid: "5511977776666@s.whatsapp.net" });
  });

  it("lists the phone's contacts (address book and chats) as contacts.listed parts of at most 500, the last one marked", async () => {
    const { network, session, id } = await connected();
    await network.setPhoneBook(id, [
      { number: "5511911110000", name: "Dona Marta" },
      ...Array.from({ length: 600 }, (_, i) => ({ number: `55219${String(10_000_000 + i)}` })),
    ]);
    await network.customerSend("5531988887777", id, { type: "text", body: "oi" });
    await network.upsertCustomer("5531988887777", "Seu Zé");
    const result = [await executeCommand(session, { ...cmd, type: "listContacts", commandId: "c5", requestId: "imp1" }, media)].flat();
    expect(result.map((e) => [e.type, e.eventId, "last" in e && e.last])).toEqual([
      ["contacts.listed", "contacts:imp1:0", false],
      ["contacts.listed", "contacts:imp1:1", true],
    ]);
    const all = result.flatMap((e) => (e.type === "contacts.listed" ? e.contacts : []));
    expect(all).toHaveLength(602);
    expect(all).toContainEqual({ jid: "5511911110000@s.whatsapp.net", number: "5511911110000", name: "Dona Marta" });
    expect(all).toContainEqual({ jid: "5531988887777@s.whatsapp.net", number: "5531988887777", name: "Seu Zé" });
    expect(failureEvent({ ...cmd, type: "listContacts", commandId: "c6", requestId: "imp2" }, "ERR_WAPP_NOT_INITIALIZED")).toMatchObject({
      type: "contacts.listed",
      requestId: "imp2",
      last: true,
      contacts: [],
      error: "ERR_WAPP_NOT_INITIALIZED",
    });
  });

  it("answers a batched number check with one number.checked per number, and a failed batch fails each number", async () => {
    const { session } = await connected();
    const checks = [
      { requestId: "r1", number: "5511977776666" },
      { requestId: "r2", number: "5511900000000" },
    ];
    const result = await executeCommand(session, { ...cmd, type: "checkNumbers", commandId: "c7", checks }, media);
    expect(result).toEqual([
      expect.objectContaining({ type: "number.checked", eventId: "checked:r1", requestId: "r1", number: "5511977776666", exists: true, jid: "5511977776666@s.whatsapp.net" }),
      expect.objectContaining({ type: "number.checked", eventId: "checked:r2", requestId: "r2", number: "5511900000000", exists: false }),
    ]);
    expect(failureEvent({ ...cmd, type: "checkNumbers", commandId: "c8", checks }, "ERR_WAPP_NOT_INITIALIZED")).toEqual([
      expect.objectContaining({ type: "number.checked", requestId: "r1", exists: false }),
      expect.objectContaining({ type: "number.checked", requestId: "r2", exists: false }),
    ]);
  });

  it("failures carry the catalogue code", async () => {
    const { session } = await connected();
    await expect(executeCommand(session, { ...cmd, type: "edit", commandId: "c3", chatJid: "5511977776666@s.whatsapp.net", targetId: "NOPE", body: "x" }, media)).rejects.toMatchObject({ code: "ERR_SENDING_WAPP_MSG" });
    expect(failureEvent({ ...cmd, type: "delete", commandId: "c4", chatJid: "j", targetId: "t" }, "ERR_DELETE_WAPP_MSG")).toMatchObject({ type: "command.result", ok: false, error: "ERR_DELETE_WAPP_MSG", commandId: "c4" });
  });
});
