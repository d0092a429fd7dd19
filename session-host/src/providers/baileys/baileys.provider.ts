import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type * as BaileysModule from "baileys";
import type { WAMessage, WAMessageKey } from "baileys";
import { MAX_MESSAGE_MEDIA_BYTES } from "@atende/shared/constants/business";
import type { PhoneContact } from "@atende/shared/contracts/queue-messages";
import { canonicalBrazilianNumber } from "@atende/shared/domain/format/phone";
import { isOggOpus } from "@atende/shared/domain/messages/message";
import type { Db } from "../../platform/db";
import type { Logger } from "../../platform/logger";
import { pinoAdapter } from "../../platform/pino-adapter";
import { MediaTooLargeError, ProviderError, type OutgoingMessage, type Provider, type ProviderSession, type SessionContext } from "../provider.port";
import { createBaileysAuth } from "./baileys-auth";
import { ackOf, mapBaileysMessage, unwrap } from "./message-mapper";
import { createMessageStore, type MessageStore, type StoredKey } from "./message-store";
import { MAX_QR_ATTEMPTS, reconnectDecision } from "./reconnect-policy";

type Baileys = typeof BaileysModule;
type Socket = ReturnType<Baileys["makeWASocket"]>;
type WaVersion = [number, number, number];

/** Loaded on first use: hosts that only run the simulator never load Baileys. */
let baileysModule: Promise<Baileys> | undefined;
const importBaileys = () => (baileysModule ??= import("baileys"));

const userOf = (jid: string | undefined) => (jid ?? "").split("@")[0]?.split(":")[0] ?? "";
/** status updates, broadcast lists and channels: never decrypted nor stored */
const ignoredJid = (jid: string | undefined) => !!jid && (jid === "status@broadcast" || jid.endsWith("@broadcast") || jid.endsWith("@newsletter"));

/** A small in-memory cache with expiry (Baileys' CacheStore shape). */
const ttlCache = (ttlMs: number, max = 10_000) => {
  const items = new Map<string, { v: unknown; until: number }>();
  return {
    get<T>(key: string): T | undefined {
      const it = items.get(key);
      if (!it) return undefined;
      if (it.until < Date.now()) {
        items.delete(key);
        return undefined;
      }
      return it.v as T;
    },
    set<T>(key: string, v: T) {
      items.delete(key);
      items.set(key, { v, until: Date.now() + ttlMs });
      if (items.size > max) items.delete(items.keys().next().value as string);
    },
    del(key: string) {
      items.delete(key);
    },
    flushAll() {
      items.clear();
    },
  };
};

/** Reads at most `limit` bytes of a stream; past it, stops the download and fails with MediaTooLargeError. */
export const readCapped = async (source: Readable, limit: number): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let total = 0;
  await pipeline(
    source,
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        total += chunk.length;
        if (total > limit) return done(new MediaTooLargeError(limit, total));
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
};

export type BaileysProviderDeps = {
  logger: Logger;
  db: Db;
  /** tests: a Baileys module whose socket is scripted */
  baileys?: () => Promise<Baileys>;
  /** tests: the message store (the table otherwise) */
  messages?: (identity: SessionContext["identity"]) => MessageStore;
  /** the largest media sent or received (the plan's message media limit by default) */
  mediaMaxBytes?: number;
  /** how long the WhatsApp Web version lookup may take at start before the bundled version is used */
  versionTimeoutMs?: number;
  /** Baileys' own log level through our logger (info: enough to diagnose a first real connection) */
  baileysLogLevel?: "trace" | "debug" | "info" | "warn" | "error" | "silent";
  /** how long a looked-up profile picture is trusted before it is looked up again (a day) */
  pictureMaxAgeMs?: number;
  /** how long logout/new QR waits for a socket opened only to unlink the device */
  unlinkTimeoutMs?: number;
  /**
   * Send pace of one connection (one WhatsApp number): a burst, then at most `perMinute` messages a minute;
   * sends beyond it wait (bursts of automated messages are a ban trigger). `now`/`sleep` for tests.
   */
  sendPace?: { perMinute: number; burst: number; now?: () => number; sleep?: (ms: number) => Promise<void> };
};

/** A token bucket: `take` resolves when a token is free. */
export const createPacer = (opts: { perMinute: number; burst: number; now?: () => number; sleep?: (ms: number) => Promise<void> }) => {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const interval = 60_000 / opts.perMinute;
  let tokens = opts.burst;
  let at = now();
  let chain: Promise<void> = Promise.resolve();
  const refill = () => {
    const t = now();
    tokens = Math.min(opts.burst, tokens + (t - at) / interval);
    at = t;
  };
  return {
    take(): Promise<void> {
      const turn = chain.then(async () => {
        refill();
        if (tokens < 1) {
          await sleep(Math.ceil((1 - tokens) * interval));
          refill();
        }
        tokens -= 1;
      });
      chain = turn.catch(() => undefined);
      return turn;
    },
  };
};

/**
 * The Baileys provider: one WhatsApp Web multi-device socket per connection.
 * Auth state lives in the table (never local files), saved through one write queue per connection;
 * `getMessage` answers retries from stored messages; closes follow the table of ADR 0014; the WhatsApp Web
 * version is looked up at start (bundled one as fallback); `markOnlineOnConnect` is off so the phone keeps
 * receiving notifications. Messages of one chat are handled one at a time, in arrival order.
 */
export const createBaileysProvider = (deps: BaileysProviderDeps): Provider => {
  const loadBaileys = deps.baileys ?? importBaileys;
  const mediaMax = deps.mediaMaxBytes ?? MAX_MESSAGE_MEDIA_BYTES;
  /** the version every socket of this process uses; looked up again after WhatsApp refused it (405) */
  let version: Promise<WaVersion> | undefined;
  const currentVersion = (b: Baileys, log: Logger): Promise<WaVersion> =>
    (version ??= (async () => {
      const bundled = b.DEFAULT_CONNECTION_CONFIG.version as WaVersion;
      const timeoutMs = deps.versionTimeoutMs ?? 5_000;
      try {
        const found = await Promise.race([
          b.fetchLatestWaWebVersion({ signal: AbortSignal.timeout(timeoutMs) }),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error("version lookup timed out")), timeoutMs + 100).unref()),
        ]);
        if (found.isLatest && Array.isArray(found.version)) {
          log.info("WhatsApp Web version", { version: found.version.join("."), source: "web.whatsapp.com" });
          return found.version as WaVersion;
        }
        log.warn("WhatsApp Web version not found: using the bundled one", { version: bundled.join("."), err: String((found as { error?: unknown }).error ?? "") });
      } catch (err) {
        log.warn("WhatsApp Web version lookup failed: using the bundled one", { version: bundled.join("."), err: String(err) });
      }
      return bundled;
    })());

  return {
    channel: "baileys",
    createSession(ctx: SessionContext): ProviderSession {
      const { events, auth, identity } = ctx;
      const log = deps.logger.child({ provider: "baileys", ...identity });
      const baileysLog = pinoAdapter(log, deps.baileysLogLevel ?? "info");
      const messages = deps.messages?.(identity) ?? createMessageStore(deps.db, identity);
      const pacer = createPacer(deps.sendPace ?? { perMinute: 60, burst: 20 });
      /** kept across reconnects: the retry counts of messages a device could not decrypt */
      const msgRetryCounterCache = ttlCache(60 * 60_000);
      const groupMetadata = ttlCache(5 * 60_000, 1_000);
      /** chats whose profile picture was looked up in the last day (kept across reconnects) */
      const pictureChecked = ttlCache(deps.pictureMaxAgeMs ?? 24 * 60 * 60_000, 50_000);
      /** ids of messages sent through this session: their echo (`append`) is neither downloaded nor published */
      const sentIds = new Set<string>();
      let sock: Socket | undefined;
      let authState: Awaited<ReturnType<typeof createBaileysAuth>> | undefined;
      let stopped = false;
      let connected = false;
      let attempt = 0;
      let lastCode: number | undefined;
      let sameInARow = 0;
      let qrCount = 0;
      let retryTimer: NodeJS.Timeout | undefined;
      /** pairing-code login: the number asked for (waiting for the socket's QR stage) and the code WhatsApp gave */
      let pairing: { phoneNumber: string; code?: string; waiting: boolean } | undefined;
      /** the current socket reached the QR stage (registration): the moment a pairing code may be requested */
      let awaitingQr = false;
      /** the QR on screen (kept on the event that brings the pairing code: the admin may still scan instead) */
      let lastQr = "";
      const report = (p: Promise<void>) => p.catch((err) => log.warn("event not published", { err: String(err) }));
      /**
       * The phone's contacts as this socket received them (contacts.upsert/update, history sync). Kept in memory
       * only: WhatsApp sends them on link and history sync, so a session taken over by another host starts with
       * what arrives there (docs/adr/0012).
       */
      const phoneBook = new Map<string, PhoneContact>();
      const learnContacts = (list: Partial<BaileysContact>[]) => {
        for (const c of list) {
          const entry = phoneContactOf(c);
          if (!entry) continue;
          const before = phoneBook.get(entry.jid);
          phoneBook.set(entry.jid, { ...before, ...entry, name: entry.name ?? before?.name });
          if (phoneBook.size > MAX_PHONE_BOOK) phoneBook.delete(phoneBook.keys().next().value as string);
        }
      };

      /** one chain per chat: a slow media download never lets a later message of that chat overtake it */
      const chats = new Map<string, Promise<void>>();
      const inChat = (chatJid: string, task: () => Promise<void>) => {
        const next = (chats.get(chatJid) ?? Promise.resolve()).then(task).catch((err) => log.error("message handling failed", { chatJid, err: String(err) }));
        chats.set(chatJid, next);
        void next.finally(() => chats.get(chatJid) === next && chats.delete(chatJid));
        return next;
      };

      const storedMessage = async (id: string): Promise<WAMessage | undefined> => {
        const m = await messages.get(id);
        if (!m) return undefined;
        const { proto } = await loadBaileys();
        return { key: keyFrom(id, m), message: proto.Message.decode(m.content) };
      };
      const keyFrom = (id: string, k: StoredKey): WAMessageKey => ({
        remoteJid: k.remoteJid,
        id,
        fromMe: k.fromMe,
        ...(k.participant ? { participant: k.participant } : {}),
        ...(k.remoteJidAlt ? { remoteJidAlt: k.remoteJidAlt } : {}),
        ...(k.participantAlt ? { participantAlt: k.participantAlt } : {}),
      });
      /**
       * The key of a message as WhatsApp addressed it: the stored remoteJid (LID or number, whichever the chat
       * used) and participant; the ticket's chat only when the message is unknown here.
       */
      const keyOf = async (chatJid: string, id: string, fromMe?: boolean): Promise<WAMessageKey> => {
        const stored = await messages.get(id);
        if (stored) return keyFrom(id, stored);
        return { remoteJid: chatJid, id, fromMe: fromMe ?? true };
      };
      const remember = async (msg: WAMessage | undefined) => {
        if (!msg?.key.id || !msg.message || !msg.key.remoteJid) return;
        const { proto } = await loadBaileys();
        const k = msg.key;
        await messages.put(
          msg.key.id,
          { remoteJid: k.remoteJid!, fromMe: Boolean(k.fromMe), participant: k.participant ?? undefined, remoteJidAlt: k.remoteJidAlt ?? undefined, participantAlt: k.participantAlt ?? undefined },
          proto.Message.encode(msg.message).finish(),
        );
      };

      /** Streams inbound media into memory with a cap; refuses at once when WhatsApp declares it too large. */
      const downloader = (b: Baileys, s: Socket) => async (m: WAMessage) => {
        const content = unwrap(m.message);
        const media = content?.imageMessage ?? content?.videoMessage ?? content?.audioMessage ?? content?.documentMessage ?? content?.stickerMessage ?? content?.ptvMessage;
        const length = media?.fileLength as unknown;
        // protobuf uint64: a number, or a Long once decoded from the wire
        const declared = typeof length === "object" && length && "toNumber" in length ? (length as { toNumber(): number }).toNumber() : Number(length ?? 0);
        if (declared > mediaMax) throw new MediaTooLargeError(mediaMax, declared);
        const stream = await b.downloadMediaMessage(m, "stream", {}, { logger: baileysLog, reuploadRequest: s.updateMediaMessage });
        return readCapped(stream, mediaMax);
      };

      const connectionState = (status: "DISCONNECTED" | "OPENING", extra: { retries?: number; reason?: string; loggedOut?: boolean } = {}) =>
        report(events.connection({ status, qrcode: "", ...extra }));

      const clearSession = async () => {
        authState = undefined;
        await auth.clear();
      };

      const connect = async () => {
        const b = await loadBaileys();
        if (stopped) return;
        authState ??= await createBaileysAuth(b, auth, baileysLog);
        const saving = authState;
        const s = b.makeWASocket({
          auth: saving.state,
          version: await currentVersion(b, log),
          logger: baileysLog as never,
          markOnlineOnConnect: false,
          syncFullHistory: false,
          browser: b.Browsers.ubuntu("Atende"),
          msgRetryCounterCache,
          cachedGroupMetadata: async (jid) => groupMetadata.get(jid),
          shouldIgnoreJid: (jid) => ignoredJid(jid),
          getMessage: async (key) => (key.id ? ((await storedMessage(key.id))?.message ?? undefined) : undefined),
        });
        if (stopped) {
          s.end(undefined);
          return;
        }
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
            awaitingQr = true;
            lastQr = u.qr;
            void report(events.connection({ status: "qrcode", qrcode: u.qr, retries: qrCount, ...(pairing?.code ? { pairingCode: pairing.code } : {}) }));
            if (pairing && !pairing.code && !pairing.waiting) void askPairingCode(s);
          }
          if (u.isNewLogin) {
            pairing = undefined;
            void report(events.connection({ status: "PAIRING", qrcode: "" }));
          }
          if (u.connection === "open") {
            connected = true;
            pairing = undefined;
            attempt = 0;
            sameInARow = 0;
            lastCode = undefined;
            qrCount = 0;
            log.info("connected", { number: userOf(s.user?.id) });
            void report(events.connection({ status: "CONNECTED", qrcode: "", number: userOf(s.user?.id) }));
          }
          if (u.connection === "close") onClose(s, u.lastDisconnect?.error);
        });

        s.ev.on("groups.upsert", (groups) => {
          for (const g of groups) groupMetadata.set(g.id, g);
        });
        s.ev.on("groups.update", (updates) => {
          for (const g of updates) if (g.id) groupMetadata.del(g.id);
        });
        s.ev.on("group-participants.update", ({ id }) => groupMetadata.del(id));
        // Baileys keeps the LID <-> number mappings in the auth store for itself; the functions link the contact too
        s.ev.on("lid-mapping.update", (m) => {
          for (const { lid, pn } of [m].flat() as { lid?: string; pn?: string }[]) {
            const l = userOf(lid);
            const n = userOf(pn);
            if (!l || !/^\d{8,15}$/.test(n) || !lid?.endsWith("@lid")) continue;
            log.debug("lid mapping", { lid: l, number: n });
            if (events.identity) void report(events.identity({ lid: l, number: n }));
          }
        });
        /**
         * The profile picture of a person who writes: looked up on their first message, then at most once a day
         * (the contact keeps the URL); none, or hidden by their privacy settings, is not an error.
         */
        const lookUpPicture = async (sock: Socket, m: { chatJid: string; sender: { number?: string; lid?: string } }) => {
          if (!events.picture || pictureChecked.get(m.chatJid)) return;
          pictureChecked.set(m.chatJid, true);
          try {
            const url = await sock.profilePictureUrl(m.chatJid, "image");
            if (url) await report(events.picture({ chatJid: m.chatJid, number: m.sender.number, lid: m.sender.lid, url }));
          } catch (err) {
            log.debug("no profile picture", { chatJid: m.chatJid, err: String(err) });
          }
        };
        /** chats whose presence (typing…) this socket subscribed to: WhatsApp only sends it after a subscribe */
        const subscribed = new Set<string>();
        const subjectOf = async (jid: string) => {
          let meta = groupMetadata.get<{ subject?: string }>(jid);
          if (!meta) {
            meta = await s.groupMetadata(jid).catch(() => undefined);
            if (meta) groupMetadata.set(jid, meta);
          }
          return meta?.subject || undefined;
        };

        s.ev.on("contacts.upsert", (list) => learnContacts(list));
        s.ev.on("contacts.update", (list) => learnContacts(list));
        s.ev.on("messaging-history.set", ({ contacts }) => learnContacts(contacts ?? []));

        s.ev.on("messages.upsert", ({ messages: list, type }) => {
          if (type !== "notify" && type !== "append") return;
          for (const msg of list) {
            const chatJid = msg.key.remoteJid;
            if (!chatJid || ignoredJid(chatJid)) continue;
            // our own send coming back: the functions already have it (and its media)
            if (msg.key.fromMe && msg.key.id && sentIds.has(msg.key.id)) continue;
            void inChat(chatJid, async () => {
              await remember(msg).catch((err) => log.warn("message not kept for retries", { err: String(err) }));
              const mapped = mapBaileysMessage(msg, downloader(b, s));
              if (mapped.kind === "message" && mapped.message.isGroup) mapped.message.groupSubject = await subjectOf(chatJid);
              if (mapped.kind === "message" && !mapped.message.isGroup && !mapped.message.fromMe && type === "notify" && !subscribed.has(chatJid)) {
                subscribed.add(chatJid);
                void s.presenceSubscribe(chatJid).catch((err) => log.debug("presence subscribe failed", { chatJid, err: String(err) }));
              }
              if (mapped.kind === "message") await report(events.message(mapped.message));
              if (mapped.kind === "message" && !mapped.message.isGroup && !mapped.message.fromMe && type === "notify") void lookUpPicture(s, mapped.message);
              else if (mapped.kind === "update") await report(events.messageUpdate(mapped.update));
            });
          }
        });

        s.ev.on("messages.update", (updates) => {
          for (const { key, update } of updates) {
            if (!key.id || !key.remoteJid || ignoredJid(key.remoteJid)) continue;
            const chatJid = key.remoteJid;
            void inChat(chatJid, async () => {
              const ack = ackOf(update.status);
              if (ack !== undefined && key.fromMe) await report(events.messageUpdate({ messageId: key.id!, chatJid, ack }));
              if (update.message) {
                const mapped = mapBaileysMessage({ key, message: update.message } as WAMessage, async () => Buffer.alloc(0));
                if (mapped.kind === "update") await report(events.messageUpdate(mapped.update));
              }
            });
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
            const pn = c.from.endsWith("@s.whatsapp.net") ? c.from : (c as { callerPn?: string }).callerPn;
            await report(events.call({ callId: c.id, from: c.from, fromNumber: pn ? userOf(pn) : undefined, isVideo: Boolean(c.isVideo) }));
          }
        });
      };

      /**
       * Asks WhatsApp for a pairing code on a socket at the QR stage (Baileys: only before registration, once the
       * socket is connecting; it stores the number as `creds.me` and sends companion_hello). The code goes out on
       * a connection event and stays on every later QR event until the phone pairs.
       */
      const askPairingCode = async (s: Socket) => {
        const p = pairing;
        if (!p || sock !== s) return;
        p.waiting = true;
        try {
          const code = await s.requestPairingCode(p.phoneNumber);
          if (pairing !== p || sock !== s) return;
          p.code = code;
          log.info("pairing code issued", { phoneNumber: p.phoneNumber });
          await report(events.connection({ status: "qrcode", qrcode: lastQr, retries: qrCount, pairingCode: code }));
        } catch (err) {
          log.warn("pairing code not issued", { err: String(err) });
          if (pairing === p) pairing = undefined;
        } finally {
          p.waiting = false;
        }
      };

      /** A socket closed: the decision of ADR 0014 for its status code. */
      const onClose = (s: Socket, error: unknown) => {
        if (sock !== s) return;
        connected = false;
        sock = undefined;
        awaitingQr = false;
        lastQr = "";
        // a pairing code asked for but never entered: Baileys left the number as creds.me, so the next socket would
        // try to log in as an unregistered device; back to registration (the code is asked for again on its QR)
        if (pairing && authState && !authState.state.creds.registered && authState.state.creds.me?.name === "~") {
          authState.state.creds.me = undefined;
          authState.state.creds.pairingCode = undefined;
          pairing.code = undefined;
          const saving = authState;
          void saving.saveCreds().catch((err) => log.error("creds not saved", { err: String(err) }));
        }
        if (stopped) return;
        const code = (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
        sameInARow = code === lastCode ? sameInARow + 1 : 1;
        lastCode = code;
        const decision = reconnectDecision(code, attempt++, Math.random, sameInARow);
        log.info("connection closed", { code, reason: decision.reason, action: decision.action, attempt, err: String(error ?? "") });
        const later = (ms: number) => {
          retryTimer = setTimeout(() => void connect().catch((err) => log.error("reconnect failed", { err: String(err) })), ms);
        };
        switch (decision.action) {
          case "reconnect":
            if (decision.delayMs > 0) void connectionState(attempt > 1 ? "DISCONNECTED" : "OPENING", { retries: attempt, reason: decision.reason });
            later(decision.delayMs);
            return;
          case "refreshVersion":
            version = undefined; // looked up again before the next socket
            void connectionState("OPENING", { retries: attempt, reason: decision.reason });
            later(decision.delayMs);
            return;
          case "stop":
            stopped = true;
            log.warn("connection stopped: not reconnecting", { code, reason: decision.reason });
            void connectionState("DISCONNECTED", { retries: attempt, reason: decision.reason });
            return;
          case "logout":
            log.warn("session unusable: clearing it", { code, reason: decision.reason });
            void (async () => {
              await clearSession();
              await events.connection({ status: "DISCONNECTED", qrcode: "", loggedOut: true, reason: decision.reason });
              qrCount = 0;
              attempt = 0;
              if (decision.newQr && !stopped) await connect();
              else stopped = true;
            })().catch((err) => log.error("logout handling failed", { err: String(err) }));
            return;
        }
      };

      /**
       * Unlinks this device from the phone (a phone allows four linked devices: a cleared session must not leave
       * a ghost behind). With the socket down, one is opened just for that. False when it could not be done.
       */
      const unlink = async (): Promise<boolean> => {
        if (sock && connected) {
          try {
            await sock.logout();
            return true;
          } catch (err) {
            log.warn("unlink failed", { err: String(err) });
            return false;
          }
        }
        const b = await loadBaileys();
        authState ??= await createBaileysAuth(b, auth, baileysLog);
        if (!authState.state.creds.me) return true; // never paired: nothing linked
        const state = authState;
        const s = b.makeWASocket({ auth: state.state, version: await currentVersion(b, log), logger: baileysLog as never, markOnlineOnConnect: false, browser: b.Browsers.ubuntu("Atende") });
        s.ev.on("creds.update", () => void state.saveCreds().catch(() => undefined));
        try {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error("socket did not open")), deps.unlinkTimeoutMs ?? 20_000);
            s.ev.on("connection.update", (u) => {
              if (u.connection === "open") {
                clearTimeout(timer);
                resolve();
              }
              if (u.connection === "close") {
                clearTimeout(timer);
                const code = (u.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
                // 401: the phone already removed this device
                if (code === 401) resolve();
                else reject(new Error(`socket closed (${code ?? "?"})`));
              }
            });
          });
          if (s.user) await s.logout();
          return true;
        } catch (err) {
          log.warn("could not unlink the device: it may still be listed on the phone", { err: String(err) });
          return false;
        } finally {
          s.end(undefined);
        }
      };

      const live = () => {
        if (!sock || !connected) throw new ProviderError("ERR_WAPP_NOT_INITIALIZED");
        return sock;
      };

      const content = async (m: OutgoingMessage) => {
        const contextInfo = m.isForwarded ? { isForwarded: true, forwardingScore: 1 } : undefined;
        if (!m.media) return { text: m.body, contextInfo };
        const size = m.media.byteSize ? await m.media.byteSize() : m.media.size;
        if (size !== undefined && size > mediaMax) throw new ProviderError("ERR_WAPP_MEDIA_TOO_LARGE");
        // a stream: Baileys encrypts it to a temporary file, never holding the media whole
        const upload = m.media.stream ? { stream: await m.media.stream() } : await m.media.read();
        if (Buffer.isBuffer(upload) && upload.length > mediaMax) throw new ProviderError("ERR_WAPP_MEDIA_TOO_LARGE");
        const caption = m.body || undefined;
        switch (m.media.kind) {
          case "image":
            return { image: upload, caption, mimetype: m.media.mimetype, contextInfo };
          case "video":
            return { video: upload, caption, mimetype: m.media.mimetype, contextInfo };
          case "audio": {
            // a voice note only when it really is Opus in Ogg (ADR 0015); anything else goes as plain audio, as it is
            const voice = Boolean(m.media.ptt) && isOggOpus(m.media.mimetype);
            return { audio: upload, mimetype: voice ? "audio/ogg; codecs=opus" : m.media.mimetype, ptt: voice, contextInfo };
          }
          case "sticker":
            return { sticker: upload, contextInfo };
          case "document":
            return { document: upload, mimetype: m.media.mimetype, fileName: m.media.filename ?? "arquivo", caption, contextInfo };
        }
      };

      const halt = () => {
        stopped = true;
        connected = false;
        if (retryTimer) clearTimeout(retryTimer);
        const s = sock;
        sock = undefined;
        s?.end(undefined);
      };

      return {
        async start() {
          stopped = false;
          attempt = 0;
          sameInARow = 0;
          await events.connection({ status: "OPENING", qrcode: "" });
          await connect();
        },
        async stop() {
          halt();
        },
        async logout() {
          if (retryTimer) clearTimeout(retryTimer);
          stopped = true;
          const unlinked = await unlink();
          halt();
          await clearSession();
          await events.connection({ status: "DISCONNECTED", qrcode: "", loggedOut: true, ...(unlinked ? {} : { reason: "unlinkFailed" }) });
        },
        async requestNewQr() {
          if (retryTimer) clearTimeout(retryTimer);
          stopped = true;
          const unlinked = await unlink();
          halt();
          if (!unlinked) log.warn("new QR: the previous device could not be unlinked; remove it from the phone's linked devices");
          pairing = undefined;
          await clearSession();
          qrCount = 0;
          attempt = 0;
          stopped = false;
          await connect();
        },
        async requestPairingCode(phoneNumber) {
          if (connected) return;
          pairing = { phoneNumber, waiting: false };
          if (sock && awaitingQr) return askPairingCode(sock);
          if (!sock && stopped) {
            // stopped (timed out or disconnected): a new socket; the code is asked for at its first QR
            stopped = false;
            qrCount = 0;
            attempt = 0;
            await connect();
          }
        },
        isConnected: () => connected,
        async send(m) {
          const s = live();
          const quoted = m.quotedId ? await storedMessage(m.quotedId) : undefined;
          const body = await content(m);
          await pacer.take();
          sentIds.add(m.messageId);
          if (sentIds.size > 5_000) sentIds.delete(sentIds.values().next().value as string);
          const sent = await s.sendMessage(m.chatJid, body as never, { messageId: m.messageId, quoted });
          if (sent?.key.id) sentIds.add(sent.key.id);
          await remember(sent);
          return { messageId: sent?.key.id ?? m.messageId };
        },
        async edit(chatJid, targetId, body) {
          const key = await keyOf(chatJid, targetId, true);
          await live().sendMessage(key.remoteJid!, { text: body, edit: key });
        },
        async delete(chatJid, targetId) {
          const key = await keyOf(chatJid, targetId, true);
          await live().sendMessage(key.remoteJid!, { delete: key });
        },
        async react(chatJid, targetId, emoji) {
          const key = await keyOf(chatJid, targetId);
          await live().sendMessage(key.remoteJid!, { react: { text: emoji, key } });
        },
        async markRead(chatJid, ids) {
          const keys = await Promise.all(ids.map(async (id) => ({ ...(await keyOf(chatJid, id, false)), fromMe: false })));
          await live().readMessages(keys);
        },
        async sendPresence(chatJid, presence) {
          await live().sendPresenceUpdate(presence, chatJid);
        },
        async checkNumber(number) {
          const [found] = (await live().onWhatsApp(number)) ?? [];
          return found?.exists ? { exists: true, jid: found.jid } : { exists: false };
        },
        async listContacts() {
          live();
          return [...phoneBook.values()];
        },
        async checkNumbers(numbers) {
          // one usync query for the lot; WhatsApp answers only the numbers that exist, by jid (a Brazilian mobile
          // may come back without its ninth digit), so answers are matched by canonical number
          const found = (await live().onWhatsApp(...numbers)) ?? [];
          const byNumber = new Map(found.filter((f) => f.exists).map((f) => [canonicalBrazilianNumber(userOf(f.jid)), f.jid]));
          return numbers.map((number) => {
            const jid = byNumber.get(canonicalBrazilianNumber(number));
            return jid ? { number, exists: true, jid } : { number, exists: false };
          });
        },
        async rejectCall(callId, from) {
          await live().rejectCall(callId, from);
        },
      };
    },
  };
};

const MAX_PHONE_BOOK = 20_000;
type BaileysContact = { id: string; lid?: string; phoneNumber?: string; name?: string; notify?: string; verifiedName?: string };

/** A Baileys contact as a phone-book entry: people only (no groups, broadcast lists or newsletters). */
export const phoneContactOf = (c: Partial<BaileysContact>): PhoneContact | null => {
  const id = c.id ?? "";
  const pn = [id, c.phoneNumber ?? ""].find((j) => j.endsWith("@s.whatsapp.net"));
  const lid = [id, c.lid ?? ""].find((j) => j.endsWith("@lid"));
  const jid = pn ?? lid;
  if (!jid) return null;
  const number = pn ? userOf(pn) : undefined;
  const name = c.name || c.verifiedName || c.notify || undefined;
  return { jid, ...(number ? { number } : {}), ...(lid ? { lid: userOf(lid) } : {}), ...(name ? { name } : {}) };
};
