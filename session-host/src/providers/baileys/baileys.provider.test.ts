import { Readable } from "node:stream";
import * as realBaileys from "baileys";
import type { WAMessage } from "baileys";
import { describe, expect, it } from "vitest";
import { MediaTooLargeError, ProviderError } from "../provider.port";
import { harness, textMsg, tick, until } from "./scripted-baileys.fixtures";

describe("Baileys provider: closes (ADR 0014)", () => {
  it("403 (banned/forbidden) and 440 (replaced) stop: no new socket, DISCONNECTED with the reason, auth kept", async () => {
    for (const [code, reason] of [
      [403, "forbidden"],
      [440, "connectionReplaced"],
    ] as const) {
      const h = harness();
      await h.session.start();
      h.latest().open();
      h.authItems.set("creds#marker", true);
      h.latest().close(code);
      await tick(1_200); // longer than the first backoff
      expect(h.sockets).toHaveLength(1);
      expect(h.connection.at(-1)).toMatchObject({ status: "DISCONNECTED", reason });
      expect(h.authItems.has("creds#marker")).toBe(true);
      // replaced: the host dials again while its lease is live (a host that lost the lease dialled late)
      expect(h.session.wasReplaced?.()).toBe(code === 440);
      if (code === 440) {
        await h.session.start();
        expect(h.sockets).toHaveLength(2);
        expect(h.session.wasReplaced?.()).toBe(false);
        // a 440 that keeps coming is not a late dial: after 3 in 10 minutes the session stays stopped
        for (let i = 2; i <= 4; i++) {
          h.latest().open();
          h.latest().close(440);
          await tick(50);
          expect(h.session.wasReplaced?.(), `440 number ${i}`).toBe(i <= 3);
          if (i < 4) await h.session.start();
        }
      }
    }
  });

  it("401 (logged out from the phone) clears the auth, says so, and offers a new QR", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    h.authItems.set("creds#marker", true);
    h.latest().close(401);
    await until("a new socket", () => h.sockets.length === 2);
    expect(h.authItems.has("creds#marker")).toBe(false);
    expect(h.connection).toContainEqual(expect.objectContaining({ status: "DISCONNECTED", loggedOut: true, reason: "loggedOut" }));
  });

  it("515 (restart after pairing) reconnects at once, keeping the retry counter cache", async () => {
    const h = harness();
    await h.session.start();
    h.latest().close(515);
    await until("a new socket", () => h.sockets.length === 2);
    expect(h.sockets[1]!.config.msgRetryCounterCache).toBe(h.sockets[0]!.config.msgRetryCounterCache);
    expect(h.sockets[1]!.config.msgRetryCounterCache).toBeDefined();
  });

  it("connects with the WhatsApp Web version looked up at start, and looks it up again after a 405", async () => {
    const h = harness();
    await h.session.start();
    expect(h.latest().config.version).toEqual([2, 3000, 1_029_999_999]);
    h.latest().close(405);
    await until("a new socket", () => h.sockets.length === 2, 4_000);
    expect(h.versionLookups()).toBe(2);
  });

  it("falls back to the bundled version when the lookup hangs", async () => {
    const h = harness({ fetchVersion: () => new Promise(() => undefined) });
    await h.session.start();
    expect(h.latest().config.version).toEqual(realBaileys.DEFAULT_CONNECTION_CONFIG.version);
  });

  it("Baileys logs at info through our logger (not silent)", async () => {
    const h = harness();
    await h.session.start();
    const log = h.latest().config.logger;
    expect(log.level).toBe("info");
    log.info({ count: 812 }, "uploading pre-keys");
    expect(h.lines).toContainEqual({ msg: "uploading pre-keys", fields: expect.objectContaining({ lib: "baileys", count: 812, companyId: 1, whatsappId: 2 }) });
  });

  it("ignores status and broadcast jids at the socket", async () => {
    const h = harness();
    await h.session.start();
    const ignore = h.latest().config.shouldIgnoreJid as (jid: string) => boolean;
    expect(ignore("status@broadcast")).toBe(true);
    expect(ignore("123@newsletter")).toBe(true);
    expect(ignore("5511987654321@s.whatsapp.net")).toBe(false);
  });
});

describe("Baileys provider: logout and new QR unlink the device", () => {
  it("with the socket down, a socket is opened to unlink before the auth is cleared", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    (h.latest().config.auth as { creds: { me?: unknown } }).creds.me = { id: "5511900000000:12@s.whatsapp.net" }; // paired
    h.latest().close(403); // stopped, socket down
    await tick();
    const logout = h.session.logout();
    await until("an unlink socket", () => h.sockets.length === 2);
    h.latest().open();
    await logout;
    expect(h.sockets[1]!.loggedOut).toBe(true);
    expect(h.authItems.size).toBe(0);
    expect(h.connection.at(-1)).toMatchObject({ status: "DISCONNECTED", loggedOut: true });
    expect(h.connection.at(-1)?.reason).toBeUndefined();
  });

  it("says so when the device could not be unlinked", async () => {
    const h = harness({ unlinkTimeoutMs: 100 });
    await h.session.start();
    h.latest().open();
    h.latest().close(403);
    await tick();
    // the session in memory is a paired one
    const creds = (h.latest().config.auth as { creds: { me?: unknown } }).creds;
    creds.me = { id: "5511900000000:12@s.whatsapp.net" };
    await h.session.logout();
    expect(h.connection.at(-1)).toMatchObject({ status: "DISCONNECTED", loggedOut: true, reason: "unlinkFailed" });
  });
});

describe("Baileys provider: messages", () => {
  it("keeps a chat's order when an earlier message's media is slow", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = harness({ download: async () => (await gate, Readable.from([Buffer.from("jpeg")])) });
    await h.session.start();
    h.latest().open();
    const chat = "5511987654321@s.whatsapp.net";
    const image = { key: { remoteJid: chat, id: "IMG1", fromMe: false }, message: { imageMessage: { mimetype: "image/jpeg", fileLength: 4 } }, messageTimestamp: 1 } as unknown as WAMessage;
    h.latest().emit("messages.upsert", { type: "notify", messages: [image] });
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("TXT2", chat, "depois")] });
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("OTHER", "5511900000001@s.whatsapp.net", "outro chat")] });
    await until("the other chat", () => h.messages.length === 1);
    expect(h.messages.map((m) => m.id)).toEqual(["OTHER"]); // other chats are not held up
    release();
    await until("all", () => h.messages.length === 3);
    expect(h.messages.map((m) => m.id)).toEqual(["OTHER", "IMG1", "TXT2"]);
  });

  it("our own send coming back as append is neither downloaded nor published again", async () => {
    let downloads = 0;
    const h = harness({ download: async () => (downloads++, Readable.from([Buffer.from("x")])) });
    await h.session.start();
    h.latest().open();
    const chat = "5511987654321@s.whatsapp.net";
    await h.session.send({ messageId: "OURS1", chatJid: chat, body: "", media: { key: "k", mimetype: "image/jpeg", kind: "image", read: async () => Buffer.from("jpeg") } });
    const echo = { key: { remoteJid: chat, id: "OURS1", fromMe: true }, message: { imageMessage: { mimetype: "image/jpeg", fileLength: 4 } }, messageTimestamp: 1 } as unknown as WAMessage;
    h.latest().emit("messages.upsert", { type: "append", messages: [echo] });
    // a message typed on the company's phone is still published
    h.latest().emit("messages.upsert", { type: "append", messages: [textMsg("PHONE1", chat, "do celular", { fromMe: true })] });
    await until("the phone's message", () => h.messages.length === 1);
    await tick(50);
    expect(h.messages.map((m) => m.id)).toEqual(["PHONE1"]);
    expect(downloads).toBe(0);
  });
});

describe("Baileys provider: socket events", () => {
  it("subscribes once to the presence of a customer who wrote (typing… arrives only after that)", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    const chat = "5511987654321@s.whatsapp.net";
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("P1", chat, "oi"), textMsg("P2", chat, "tudo bem?")] });
    await until("both", () => h.messages.length === 2);
    expect(h.latest().presence).toEqual([chat]);
  });

  it("group messages carry the group's subject", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("GS1", "120363000000000001@g.us", "oi", { participant: "5511987654321@s.whatsapp.net" })] });
    await until("the message", () => h.messages.length === 1);
    expect(h.messages[0]).toMatchObject({ isGroup: true, groupSubject: "Equipe Vendas" });
  });

  it("a call from a LID carries the caller's number from callerPn", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    // Baileys 7 call event (Socket/messages-recv.js handleCall): offer from a LID, the number in callerPn
    h.latest().emit("call", [{ chatId: "112233445566778@lid", from: "112233445566778@lid", callerPn: "5511987654321@s.whatsapp.net", id: "CALL1", date: new Date(), offline: false, status: "offer", isVideo: true, isGroup: false }]);
    await until("the call", () => h.calls.length === 1);
    expect(h.calls[0]).toEqual({ callId: "CALL1", from: "112233445566778@lid", fromNumber: "5511987654321", isVideo: true });
  });
});

describe("Baileys provider: media size limit", () => {
  it("inbound media WhatsApp declares too large is refused without downloading", async () => {
    let downloads = 0;
    const h = harness({ mediaMaxBytes: 1_000, download: async () => (downloads++, Readable.from([Buffer.alloc(10)])) });
    await h.session.start();
    h.latest().open();
    const doc = { key: { remoteJid: "5511987654321@s.whatsapp.net", id: "DOC1", fromMe: false }, message: { documentMessage: { mimetype: "application/pdf", fileName: "big.pdf", fileLength: realBaileys.proto.Message.DocumentMessage.decode(realBaileys.proto.Message.DocumentMessage.encode({ fileLength: 5_000 }).finish()).fileLength } }, messageTimestamp: 1 } as unknown as WAMessage;
    h.latest().emit("messages.upsert", { type: "notify", messages: [doc] });
    await until("the message", () => h.messages.length === 1);
    await expect(h.messages[0]!.media!.download()).rejects.toThrow(MediaTooLargeError);
    expect(downloads).toBe(0);
  });

  it("inbound media that turns out larger than declared is cut off at the limit", async () => {
    let produced = 0;
    const endless = () =>
      new Readable({
        read() {
          produced += 512;
          this.push(Buffer.alloc(512));
        },
      });
    const h = harness({ mediaMaxBytes: 4_096, download: async () => endless() });
    await h.session.start();
    h.latest().open();
    const vid = { key: { remoteJid: "5511987654321@s.whatsapp.net", id: "VID1", fromMe: false }, message: { videoMessage: { mimetype: "video/mp4", fileLength: 100 } }, messageTimestamp: 1 } as unknown as WAMessage;
    h.latest().emit("messages.upsert", { type: "notify", messages: [vid] });
    await until("the message", () => h.messages.length === 1);
    const err = await h.messages[0]!.media!.download().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaTooLargeError);
    expect(produced).toBeLessThan(4_096 + 64 * 1024); // stopped (stream buffers aside), not read to the end
  });

  it("outbound media over the limit is refused before it is read", async () => {
    let reads = 0;
    const h = harness({ mediaMaxBytes: 1_000 });
    await h.session.start();
    h.latest().open();
    const media = { key: "k", mimetype: "video/mp4", kind: "video" as const, byteSize: async () => 5_000, read: async () => (reads++, Buffer.alloc(5_000)) };
    const err = await h.session.send({ messageId: "BIG1", chatJid: "5511987654321@s.whatsapp.net", body: "", media }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe("ERR_WAPP_MEDIA_TOO_LARGE");
    expect(reads).toBe(0);
    expect(h.latest().sent).toHaveLength(0);
  });

  it("outbound media is uploaded from a stream when the store offers one", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    const stream = Readable.from([Buffer.from("pdf")]);
    await h.session.send({ messageId: "DOC2", chatJid: "5511987654321@s.whatsapp.net", body: "", media: { key: "k", mimetype: "application/pdf", kind: "document", filename: "a.pdf", byteSize: async () => 3, stream: async () => stream, read: async () => Buffer.from("pdf") } });
    expect(h.latest().sent[0]!.content.document).toEqual({ stream });
  });
});

describe("Baileys provider: send pace of one number", () => {
  it("sends a burst at once, then waits for the pace", async () => {
    let clock = 0;
    const waits: number[] = [];
    const h = harness({ sendPace: { perMinute: 30, burst: 3, now: () => clock, sleep: async (ms) => void (waits.push(ms), (clock += ms)) } });
    await h.session.start();
    h.latest().open();
    for (let i = 0; i < 5; i++) await h.session.send({ messageId: `PACE${i}`, chatJid: `55119000000${10 + i}@s.whatsapp.net`, body: "campanha" });
    expect(h.latest().sent).toHaveLength(5);
    expect(waits).toEqual([2_000, 2_000]); // 30 a minute: one every 2 s after the burst of 3
  });
});

describe("Baileys provider: voice notes (ADR 0015)", () => {
  it("only Opus in Ogg goes as a voice note; other audio keeps its type and goes as plain audio", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    const chat = "5511987654321@s.whatsapp.net";
    const audio = (mimetype: string) => ({ key: "k", mimetype, kind: "audio" as const, ptt: true, read: async () => Buffer.from("a") });
    await h.session.send({ messageId: "A1", chatJid: chat, body: "", media: audio("audio/mpeg") });
    expect(h.latest().sent.at(-1)!.content).toMatchObject({ mimetype: "audio/mpeg", ptt: false });
    await h.session.send({ messageId: "A2", chatJid: chat, body: "", media: audio("audio/webm;codecs=opus") });
    expect(h.latest().sent.at(-1)!.content).toMatchObject({ mimetype: "audio/webm;codecs=opus", ptt: false });
    await h.session.send({ messageId: "A3", chatJid: chat, body: "", media: audio("audio/ogg; codecs=opus") });
    expect(h.latest().sent.at(-1)!.content).toMatchObject({ mimetype: "audio/ogg; codecs=opus", ptt: true });
  });
});

describe("Baileys provider: keys rebuilt from what was stored", () => {
  it("a group message: react, quote and read name the participant, not the group", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    const group = "120363025555555555@g.us";
    const participant = "112233445566778@lid";
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("G1", group, "oi grupo", { participant, participantAlt: "5511987654321@s.whatsapp.net" })] });
    await until("the message", () => h.messages.length === 1);
    await h.session.react(group, "G1", "👍");
    expect(h.latest().sent.at(-1)!.content.react).toEqual({ text: "👍", key: { remoteJid: group, id: "G1", fromMe: false, participant, participantAlt: "5511987654321@s.whatsapp.net" } });
    await h.session.send({ messageId: "Q1", chatJid: group, body: "resposta", quotedId: "G1" });
    expect((h.latest().sent.at(-1)!.opts!.quoted as WAMessage).key).toMatchObject({ remoteJid: group, participant });
    await h.session.markRead(group, ["G1"]);
    expect(h.latest().read).toEqual([expect.objectContaining({ remoteJid: group, id: "G1", participant, fromMe: false })]);
  });

  it("a chat addressed by LID while the ticket holds the number: edit and delete use the stored LID", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    const lid = "112233445566778@lid";
    const pn = "5511987654321@s.whatsapp.net";
    await h.stored.put("MINE1", { remoteJid: lid, fromMe: true, remoteJidAlt: pn }, realBaileys.proto.Message.encode({ conversation: "oi" }).finish());
    await h.session.edit(pn, "MINE1", "oi, corrigido");
    expect(h.latest().sent.at(-1)).toMatchObject({ jid: lid, content: { text: "oi, corrigido", edit: { remoteJid: lid, id: "MINE1", fromMe: true } } });
    await h.session.delete(pn, "MINE1");
    expect(h.latest().sent.at(-1)).toMatchObject({ jid: lid, content: { delete: { remoteJid: lid, id: "MINE1", fromMe: true } } });
  });
});

describe("Baileys provider: pairing-code login", () => {
  it("asks Baileys for the code only once the socket is at the QR stage, and reports it until the phone pairs", async () => {
    const h = harness();
    await h.session.start();
    await until("a socket", () => h.sockets.length === 1);
    await h.session.requestPairingCode("5511944443333");
    expect(h.latest().pairingRequests).toEqual([]); // not yet registering: too early for Baileys
    h.latest().emit("connection.update", { qr: "2@ref1,keys" });
    await until("the code", () => h.connection.some((c) => c.pairingCode));
    expect(h.latest().pairingRequests).toEqual(["5511944443333"]);
    expect(h.connection.find((c) => c.pairingCode)).toMatchObject({ status: "qrcode", pairingCode: "PAIR0001" });
    // a refreshed QR keeps the code on screen
    h.latest().emit("connection.update", { qr: "2@ref2,keys" });
    await tick();
    expect(h.connection.at(-1)).toMatchObject({ status: "qrcode", qrcode: "2@ref2,keys", pairingCode: "PAIR0001" });
    h.latest().emit("connection.update", { isNewLogin: true, qr: undefined });
    h.latest().open();
    await tick();
    expect(h.connection.at(-1)).toMatchObject({ status: "CONNECTED" });
    expect(h.latest().pairingRequests).toEqual(["5511944443333"]);
  });

  it("asks at once when a QR is already shown", async () => {
    const h = harness();
    await h.session.start();
    await until("a socket", () => h.sockets.length === 1);
    h.latest().emit("connection.update", { qr: "2@ref1,keys" });
    await tick();
    await h.session.requestPairingCode("551133334444");
    expect(h.latest().pairingRequests).toEqual(["551133334444"]);
    expect(h.connection.at(-1)).toMatchObject({ status: "qrcode", pairingCode: "PAIR0001" });
  });

  it("a socket closed before the code was entered goes back to registration and asks again on the next QR", async () => {
    const h = harness();
    await h.session.start();
    await until("a socket", () => h.sockets.length === 1);
    h.latest().emit("connection.update", { qr: "2@ref1,keys" });
    await h.session.requestPairingCode("5511944443333");
    const creds = (h.latest().config.auth as { creds: { me?: unknown } }).creds;
    expect(creds.me).toMatchObject({ name: "~" });
    h.latest().close(515);
    await until("a new socket", () => h.sockets.length === 2);
    expect((h.latest().config.auth as { creds: { me?: unknown } }).creds.me).toBeUndefined(); // not a login as an unregistered device
    h.latest().emit("connection.update", { qr: "2@ref3,keys" });
    await until("asked again", () => h.latest().pairingRequests.length === 1);
    expect(h.latest().pairingRequests).toEqual(["5511944443333"]);
  });

  it("a connected session asks for nothing", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    await h.session.requestPairingCode("5511944443333");
    h.latest().emit("connection.update", { qr: "2@ref1,keys" });
    await tick();
    expect(h.latest().pairingRequests).toEqual([]);
  });
});

describe("Baileys provider: number checks", () => {
  it("checks several numbers in one onWhatsApp query and answers each, in order, matching a jid without the ninth digit", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    const answers = await h.session.checkNumbers(["5511987654321", "5511900000000", "5521912345678"]);
    expect(h.latest().numberQueries).toEqual([["5511987654321", "5511900000000", "5521912345678"]]);
    expect(answers).toEqual([
      { number: "5511987654321", exists: true, jid: "551187654321@s.whatsapp.net" },
      { number: "5511900000000", exists: false },
      { number: "5521912345678", exists: true, jid: "5521912345678@s.whatsapp.net" },
    ]);
  });
});

describe("Baileys provider: LID mappings", () => {
  it("reports each lid-mapping.update as a LID and a number of the same person", async () => {
    const h = harness();
    await h.session.start();
    h.latest().open();
    h.latest().emit("lid-mapping.update", { lid: "112233445566778@lid", pn: "5511987654321@s.whatsapp.net" });
    h.latest().emit("lid-mapping.update", { lid: "5511987654321@s.whatsapp.net", pn: "112233445566778@lid" }); // malformed: ignored
    await tick();
    expect(h.identities).toEqual([{ lid: "112233445566778", number: "5511987654321" }]);
  });
});

describe("Baileys provider: profile pictures", () => {
  it("looks up a person's picture on their first message, not again within the day, again after it; none is not an error", async () => {
    const h = harness({ pictureMaxAgeMs: 300 });
    await h.session.start();
    h.latest().open();
    const chat = "5511987654321@s.whatsapp.net";
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("PIC1", chat, "oi")] });
    await until("the picture", () => h.pictures.length === 1);
    expect(h.pictures[0]).toEqual({ chatJid: chat, url: "https://pps.whatsapp.net/v/t61.24694-24/5511987654321.jpg?oh=x" });
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("PIC2", chat, "tudo bem?")] });
    await until("the message", () => h.messages.length === 2);
    await tick();
    expect(h.latest().pictureLookups).toEqual([chat]);
    // groups and our own messages look nothing up; someone without a picture gives no event
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("PIC3", "120363000000000001@g.us", "oi grupo", { participant: chat })] });
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("PIC4", "5511900000009@s.whatsapp.net", "sem foto")] });
    await until("the messages", () => h.messages.length === 4);
    await tick();
    expect(h.latest().pictureLookups).toEqual([chat, "5511900000009@s.whatsapp.net"]);
    expect(h.pictures).toHaveLength(1);
    await tick(350); // a day later, in this test's clock
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("PIC5", chat, "voltei")] });
    await until("looked up again", () => h.pictures.length === 2);
  });
});
