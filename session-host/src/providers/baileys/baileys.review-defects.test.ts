import * as realBaileys from "baileys";
import { describe, expect, it } from "vitest";
import { METRIC } from "@atende/shared/contracts/metric-names";
import { ProviderError } from "../provider.port";
import { passkeyStepOf } from "./connection";
import { harness, textMsg, tick, until } from "./scripted-baileys.fixtures";

/**
 * The defects of issue 29's review, each played with Baileys' call pattern on a scripted socket (no phone):
 * closes, reconnects, LID chats, reactions, and WhatsApp's passkey gate while linking.
 */
const LID = "112233445566778@lid";
const PN = "5511987654321@s.whatsapp.net";

describe("Baileys provider: repeated bad-session closes (500)", () => {
  it("three 500s in a row never clear the session: it backs off, alerts (metric, error log, DISCONNECTED) and keeps trying", { timeout: 15_000 }, async () => {
    const h = harness({ random: () => 0 });
    await h.session.start();
    h.latest().open();
    h.authItems.set("creds#marker", true);
    h.latest().close(500); // backoff 1 s
    await until("socket 2", () => h.sockets.length === 2, 3_000);
    h.latest().close(500); // backoff 2 s
    await until("socket 3", () => h.sockets.length === 3, 4_000);
    h.latest().close(500); // the third: an alert, backoff 4 s, auth kept
    await tick(50);
    expect(h.authItems.has("creds#marker")).toBe(true);
    expect(h.connection.some((c) => c.loggedOut)).toBe(false);
    expect(h.counted).toContain(METRIC.badSessionCloses);
    expect(h.lines.some((l) => l.msg.includes("keeps refusing the session"))).toBe(true);
    expect(h.connection.at(-1)).toMatchObject({ status: "DISCONNECTED", reason: "badSession" });
    await until("socket 4: still reconnecting", () => h.sockets.length === 4, 6_000);
    h.latest().open();
    expect(h.session.isConnected()).toBe(true);
    await h.session.stop();
  });
});

describe("Baileys provider: sends during a routine reconnect", () => {
  it("a send while the socket restarts (515) waits for the new socket and goes out on it", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    h.latest().close(515);
    await until("socket 2", () => h.sockets.length === 2);
    expect(h.session.isConnected()).toBe(false);
    expect(h.session.isReconnecting?.()).toBe(true);
    const sending = h.session.send({ messageId: "OUT1", chatJid: PN, body: "olá" });
    await tick(100);
    h.latest().open();
    await expect(sending).resolves.toEqual({ messageId: "OUT1" });
    expect(h.sockets[1]!.sent.map((s) => s.opts?.messageId)).toEqual(["OUT1"]);
    expect(h.sockets[0]!.sent).toHaveLength(0);
  });

  it("the wait is bounded: a reconnect that does not open in time fails with ERR_WAPP_NOT_INITIALIZED", async () => {
    const h = harness({ reconnectWaitMs: 150, random: () => 0 });
    await h.session.start();
    h.latest().open();
    h.latest().close(428); // backoff 1 s: longer than the wait
    const started = Date.now();
    await expect(h.session.send({ messageId: "OUT2", chatJid: PN, body: "olá" })).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await h.session.stop();
  });

  it("a session that never linked (QR on screen) does not wait", async () => {
    const h = harness({ reconnectWaitMs: 5_000 });
    await h.session.start();
    h.latest().emit("connection.update", { qr: "2@abc" });
    const started = Date.now();
    await expect(h.session.send({ messageId: "OUT3", chatJid: PN, body: "olá" })).rejects.toBeInstanceOf(ProviderError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(h.session.isReconnecting?.()).toBe(false);
    await h.session.stop();
  });
});

describe("Baileys provider: LID chats", () => {
  it("a message typed on the phone into an @lid chat is published with the number from Baileys' LID mapping", async () => {
    const h = harness({ lidToPn: { [LID]: PN } });
    await h.session.start();
    h.latest().open();
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("PHONE1", LID, "digitado no celular", { fromMe: true })] });
    await until("published", () => h.messages.length === 1);
    expect(h.messages[0]).toMatchObject({ id: "PHONE1", fromMe: true, sender: { number: "5511987654321", lid: LID } });
  });

  it("history sync's LID <-> number pairs are forwarded as identities", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    h.latest().emit("messaging-history.set", { chats: [], contacts: [], messages: [], lidPnMappings: [{ lid: LID, pn: PN }, { lid: "bad", pn: PN }] });
    await until("forwarded", () => h.identities.length === 1);
    expect(h.identities).toEqual([{ lid: "112233445566778", number: "5511987654321" }]);
  });

  it("markRead names the LID chat when the chat is a LID chat, also for a message not kept here", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    await h.stored.put("IN1", { remoteJid: LID, fromMe: false, remoteJidAlt: PN }, realBaileys.proto.Message.encode({ conversation: "oi" }).finish());
    await h.session.markRead(PN, ["IN1", "IN2"]);
    expect(h.latest().read).toEqual([
      { remoteJid: LID, id: "IN1", fromMe: false, remoteJidAlt: PN },
      { remoteJid: LID, id: "IN2", fromMe: false },
    ]);
  });
});

describe("Baileys provider: reactions", () => {
  it("a reaction to a message we do not have is refused (ERR_FETCH_WAPP_MSG), never sent as fromMe: true", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    await expect(h.session.react(PN, "UNKNOWN1", "👍")).rejects.toMatchObject({ code: "ERR_FETCH_WAPP_MSG" });
    expect(h.latest().sent).toHaveLength(0);
    await h.stored.put("IN9", { remoteJid: PN, fromMe: false }, realBaileys.proto.Message.encode({ conversation: "oi" }).finish());
    await h.session.react(PN, "IN9", "👍");
    expect(h.latest().sent.at(-1)).toMatchObject({ jid: PN, content: { react: { text: "👍", key: { remoteJid: PN, id: "IN9", fromMe: false } } } });
  });
});

describe("Baileys provider: WhatsApp's passkey gate while linking (ADR 0076)", () => {
  it("a passkey_prologue_request stops waiting: PASSKEY_REQUIRED, counted, the half-made link cleared, no new socket", async () => {
    const h = harness();
    await h.session.start();
    h.latest().emit("connection.update", { qr: "2@abc" });
    h.latest().emit("connection.update", { isNewLogin: true }); // the phone scanned: pair-success
    h.authItems.set("creds#main", { registered: true });
    h.latest().node("notification", { from: "s.whatsapp.net", type: "passkey_prologue_request", id: "1" });
    await until("PASSKEY_REQUIRED", () => h.connection.some((c) => c.status === "PASSKEY_REQUIRED"));
    expect(h.connection.at(-1)).toMatchObject({ status: "PASSKEY_REQUIRED", reason: "passkeyRequired" });
    expect(h.latest().ended).toBe(true);
    expect(h.authItems.size).toBe(0);
    expect(h.counted).toEqual([METRIC.passkeyRequired]);
    h.latest().close(428); // the socket's own close after end: nothing more happens
    await tick(1_200);
    expect(h.sockets).toHaveLength(1);
    // the owner asks again (new QR): a fresh socket
    await h.session.requestNewQr();
    expect(h.sockets).toHaveLength(2);
  });

  it("recognises the continuation as a notification type or as the notification's child", () => {
    expect(passkeyStepOf({ tag: "notification", attrs: { type: "crsc_continuation" } })).toBe("crsc_continuation");
    expect(passkeyStepOf({ tag: "notification", attrs: { type: "server" }, content: [{ tag: "passkey_prologue_request", attrs: {} }] })).toBe("passkey_prologue_request");
    expect(passkeyStepOf({ tag: "notification", attrs: { type: "devices" }, content: [{ tag: "add" }] })).toBeUndefined();
    expect(passkeyStepOf({ tag: "notification", attrs: { type: "w:gp2" }, content: Buffer.from("x") })).toBeUndefined();
  });

  it("a connected session ignores such a notification", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    h.latest().node("notification", { type: "passkey_prologue_request" });
    await tick(50);
    expect(h.connection.some((c) => c.status === "PASSKEY_REQUIRED")).toBe(false);
    expect(h.session.isConnected()).toBe(true);
  });
});
