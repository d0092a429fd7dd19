import type * as BaileysModule from "baileys";
import type { WAMessage, WAMessageKey } from "baileys";
import pino from "pino";
import type { Db } from "../../platform/db";
import type { Logger } from "../../platform/logger";
import { ProviderError, type OutgoingMessage, type Provider, type ProviderSession, type SessionContext } from "../provider.port";
import { createBaileysAuth } from "./baileys-auth";
import { ackOf, mapBaileysMessage } from "./message-mapper";
import { createMessageStore } from "./message-store";
import { MAX_QR_ATTEMPTS, reconnectDecision } from "./reconnect-policy";

type Baileys = typeof BaileysModule;
type Socket = ReturnType<Baileys["makeWASocket"]>;

/** Loaded on first use: hosts that only run the simulator never load Baileys. */
let baileys: Promise<Baileys> | undefined;
const loadBaileys = () => (baileys ??= import("baileys"));

const userOf = (jid: string | undefined) => (jid ?? "").split("@")[0]?.split(":")[0] ?? "";

/**
 * The Baileys provider: one WhatsApp Web multi-device socket per connection.
 * Auth state lives in the table (never local files); every key update is saved (conditional on the lease);
 * `getMessage` answers retries from stored messages; every close except logged-out reconnects with backoff;
 * `markOnlineOnConnect` is off so the phone keeps receiving notifications.
 */
export const createBaileysProvider = (deps: { logger: Logger; db: Db }): Provider => ({
  channel: "baileys",
  createSession(ctx: SessionContext): ProviderSession {
    const { events, auth, identity } = ctx;
    const log = deps.logger.child({ provider: "baileys", ...identity });
    const messages = createMessageStore(deps.db, identity);
    let sock: Socket | undefined;
    let authState: Awaited<ReturnType<typeof createBaileysAuth>> | undefined;
    let stopped = false;
    let connected = false;
    let attempt = 0;
    let qrCount = 0;
    let retryTimer: NodeJS.Timeout | undefined;
    const report = (p: Promise<void>) => p.catch((err) => log.warn("event not published", { err: String(err) }));

    const storedMessage = async (id: string): Promise<WAMessage | undefined> => {
      const m = await messages.get(id);
      if (!m) return undefined;
      const { proto } = await loadBaileys();
      return { key: { remoteJid: m.remoteJid, id, fromMe: m.fromMe }, message: proto.Message.decode(m.content) };
    };
    const keyOf = async (chatJid: string, id: string, fromMe?: boolean): Promise<WAMessageKey> => {
      const stored = await messages.get(id);
      return { remoteJid: chatJid, id, fromMe: stored?.fromMe ?? fromMe ?? true };
    };
    const remember = async (msg: WAMessage | undefined) => {
      if (!msg?.key.id || !msg.message || !msg.key.remoteJid) return;
      const { proto } = await loadBaileys();
      await messages.put(msg.key.id, msg.key.remoteJid, Boolean(msg.key.fromMe), proto.Message.encode(msg.message).finish());
    };

    const connect = async () => {
      const b = await loadBaileys();
      if (stopped) return;
      authState ??= await createBaileysAuth(b, auth, pino({ level: "silent" }));
      const saving = authState;
      const s = b.makeWASocket({
        auth: saving.state,
        logger: pino({ level: "silent" }),
        markOnlineOnConnect: false,
        syncFullHistory: false,
        browser: b.Browsers.ubuntu("Atende"),
        getMessage: async (key) => (key.id ? (await storedMessage(key.id))?.message ?? undefined : undefined),
      });
      sock = s;

      // queued behind the connection's other auth writes (see createTableAuthStore), never beside them
      s.ev.on("creds.update", () => void saving.saveCreds().catch((err) => log.error("creds not saved", { err: String(err) })));

      s.ev.on("connection.update", (u) => {
        if (sock !== s) return;
        if (u.qr) {
          qrCount++;
          if (qrCount > MAX_QR_ATTEMPTS) {
            void report(events.connection({ status: "TIMEOUT", qrcode: "", retries: qrCount }));
            stopped = true;
            s.end(undefined);
            return;
          }
          void report(events.connection({ status: "qrcode", qrcode: u.qr, retries: qrCount }));
        }
        if (u.isNewLogin) void report(events.connection({ status: "PAIRING", qrcode: "" }));
        if (u.connection === "open") {
          connected = true;
          attempt = 0;
          qrCount = 0;
          void report(events.connection({ status: "CONNECTED", qrcode: "", number: userOf(s.user?.id) }));
        }
        if (u.connection === "close") {
          connected = false;
          if (stopped) return;
          const code = (u.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
          const decision = reconnectDecision(code, attempt++);
          if (decision.action === "logout") {
            log.info("logged out from the phone: clearing the session");
            authState = undefined;
            void (async () => {
              await auth.clear();
              await events.connection({ status: "DISCONNECTED", qrcode: "", loggedOut: true });
              qrCount = 0;
              if (!stopped) await connect();
            })().catch((err) => log.error("logout handling failed", { err: String(err) }));
            return;
          }
          void report(events.connection({ status: attempt > 1 ? "DISCONNECTED" : "OPENING", qrcode: "", retries: attempt }));
          retryTimer = setTimeout(() => void connect().catch((err) => log.error("reconnect failed", { err: String(err) })), decision.delayMs);
        }
      });

      s.ev.on("messages.upsert", async ({ messages: list, type }) => {
        if (type !== "notify" && type !== "append") return;
        for (const msg of list) {
          await remember(msg).catch(() => undefined);
          const mapped = mapBaileysMessage(msg, (m) => b.downloadMediaMessage(m, "buffer", {}, { logger: pino({ level: "silent" }), reuploadRequest: s.updateMediaMessage }));
          if (mapped.kind === "message") await report(events.message(mapped.message));
          else if (mapped.kind === "update") await report(events.messageUpdate(mapped.update));
        }
      });

      s.ev.on("messages.update", async (updates) => {
        for (const { key, update } of updates) {
          if (!key.id || !key.remoteJid) continue;
          const ack = ackOf(update.status);
          if (ack !== undefined && key.fromMe) await report(events.messageUpdate({ messageId: key.id, chatJid: key.remoteJid, ack }));
          if (update.message) {
            const mapped = mapBaileysMessage({ key, message: update.message } as WAMessage, async () => Buffer.alloc(0));
            if (mapped.kind === "update") await report(events.messageUpdate(mapped.update));
          }
        }
      });

      s.ev.on("presence.update", async ({ id, presences }) => {
        for (const p of Object.values(presences)) {
          const presence = p.lastKnownPresence;
          if (presence === "composing" || presence === "recording" || presence === "available" || presence === "unavailable" || presence === "paused")
            await report(events.presence({ chatJid: id, presence }));
        }
      });

      s.ev.on("call", async (calls) => {
        for (const c of calls) {
          if (c.status !== "offer") continue;
          await report(events.call({ callId: c.id, from: c.from, fromNumber: c.from.endsWith("@s.whatsapp.net") ? userOf(c.from) : undefined, isVideo: Boolean(c.isVideo) }));
        }
      });
    };

    const live = () => {
      if (!sock || !connected) throw new ProviderError("ERR_WAPP_NOT_INITIALIZED");
      return sock;
    };

    const content = async (m: OutgoingMessage) => {
      const contextInfo = m.isForwarded ? { isForwarded: true, forwardingScore: 1 } : undefined;
      if (!m.media) return { text: m.body, contextInfo };
      const bytes = await m.media.read();
      const caption = m.body || undefined;
      switch (m.media.kind) {
        case "image":
          return { image: bytes, caption, mimetype: m.media.mimetype, contextInfo };
        case "video":
          return { video: bytes, caption, mimetype: m.media.mimetype, contextInfo };
        case "audio":
          return { audio: bytes, mimetype: m.media.ptt ? "audio/ogg; codecs=opus" : m.media.mimetype, ptt: Boolean(m.media.ptt), contextInfo };
        case "sticker":
          return { sticker: bytes, contextInfo };
        case "document":
          return { document: bytes, mimetype: m.media.mimetype, fileName: m.media.filename ?? "arquivo", caption, contextInfo };
      }
    };

    return {
      async start() {
        stopped = false;
        await events.connection({ status: "OPENING", qrcode: "" });
        await connect();
      },
      async stop() {
        stopped = true;
        connected = false;
        if (retryTimer) clearTimeout(retryTimer);
        sock?.end(undefined);
        sock = undefined;
      },
      async logout() {
        stopped = true;
        if (retryTimer) clearTimeout(retryTimer);
        await sock?.logout().catch(() => undefined);
        sock?.end(undefined);
        sock = undefined;
        connected = false;
        authState = undefined;
        await auth.clear();
        await events.connection({ status: "DISCONNECTED", qrcode: "", loggedOut: true });
      },
      async requestNewQr() {
        stopped = true;
        if (retryTimer) clearTimeout(retryTimer);
        sock?.end(undefined);
        sock = undefined;
        connected = false;
        authState = undefined;
        qrCount = 0;
        await auth.clear();
        stopped = false;
        await connect();
      },
      isConnected: () => connected,
      async send(m) {
        const s = live();
        const quoted = m.quotedId ? await storedMessage(m.quotedId) : undefined;
        const sent = await s.sendMessage(m.chatJid, (await content(m)) as never, { messageId: m.messageId, quoted });
        await remember(sent);
        return { messageId: sent?.key.id ?? m.messageId };
      },
      async edit(chatJid, targetId, body) {
        await live().sendMessage(chatJid, { text: body, edit: await keyOf(chatJid, targetId, true) });
      },
      async delete(chatJid, targetId) {
        await live().sendMessage(chatJid, { delete: await keyOf(chatJid, targetId, true) });
      },
      async react(chatJid, targetId, emoji) {
        await live().sendMessage(chatJid, { react: { text: emoji, key: await keyOf(chatJid, targetId) } });
      },
      async markRead(chatJid, ids) {
        await live().readMessages(ids.map((id) => ({ remoteJid: chatJid, id, fromMe: false })));
      },
      async sendPresence(chatJid, presence) {
        await live().sendPresenceUpdate(presence, chatJid);
      },
      async checkNumber(number) {
        const [found] = (await live().onWhatsApp(number)) ?? [];
        return found?.exists ? { exists: true, jid: found.jid } : { exists: false };
      },
      async rejectCall(callId, from) {
        await live().rejectCall(callId, from);
      },
    };
  },
});

