import { MAX_MESSAGE_MEDIA_BYTES } from "@atende/shared/constants/business";
import { canonicalBrazilianNumber } from "@atende/shared/domain/format/phone";
import type { Db } from "../../platform/db";
import type { HostMetrics } from "../../platform/host-metrics";
import type { Logger } from "../../platform/logger";
import { mediaSlots } from "../../media/media-slots";
import { pinoAdapter } from "../../platform/pino-adapter";
import { ProviderError, type Provider, type ProviderSession, type SessionContext } from "../provider.port";
import { createConnection } from "./connection";
import { createChatChains } from "./inbound";
import { outboundContent } from "./media";
import { createMessageKeys } from "./message-keys";
import { createMessageStore, type MessageStore } from "./message-store";
import { createPhoneBook } from "./phone-contacts";
import { createTableJournalMirror, createUpsertJournal, type UpsertJournal } from "./upsert-journal";
import { createPacer, createVersionLookup, importBaileys, ttlCache, userOf, type Baileys } from "./support";

export { readCapped } from "./media";
export { phoneContactOf } from "./phone-contacts";
export { createPacer } from "./support";

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
  /** how long a command waits for a routine reconnect before ERR_WAPP_NOT_INITIALIZED (15 s) */
  reconnectWaitMs?: number;
  /** passkey walls and repeated bad-session closes are counted here */
  metrics?: Pick<HostMetrics, "count">;
  /** tests: the jitter of the reconnect backoff */
  random?: () => number;
  /**
   * This host's folder for the upsert journal (a file per connection; mirrored to the table for a takeover).
   * Without one (and no `journal`), upserts are not journaled.
   */
  journalDir?: string;
  /** tests: the journal of a connection */
  journal?: (identity: SessionContext["identity"], b: Baileys) => UpsertJournal;
};

/**
 * The Baileys provider: one WhatsApp Web multi-device socket per connection.
 * - Auth state lives in the table (never local files), saved through one write queue per connection.
 * - `getMessage` answers retries from stored messages.
 * - Closes follow the table of ADR 0014 (connection.ts); WhatsApp's events become ours in inbound.ts.
 * - The WhatsApp Web version is looked up at start (bundled one as fallback).
 * - `markOnlineOnConnect` is off so the phone keeps receiving notifications.
 * - Messages of one chat are handled one at a time, in arrival order.
 */
export const createBaileysProvider = (deps: BaileysProviderDeps): Provider => {
  const loadBaileys = deps.baileys ?? importBaileys;
  const mediaMax = deps.mediaMaxBytes ?? MAX_MESSAGE_MEDIA_BYTES;
  const version = createVersionLookup(deps.versionTimeoutMs ?? 5_000);

  return {
    channel: "baileys",
    createSession(ctx: SessionContext): ProviderSession {
      const { events, auth, identity } = ctx;
      const log = deps.logger.child({ provider: "baileys", ...identity });
      const baileysLog = pinoAdapter(log, deps.baileysLogLevel ?? "info");
      const keys = createMessageKeys(deps.messages?.(identity) ?? createMessageStore(deps.db, identity), loadBaileys);
      const pacer = createPacer(deps.sendPace ?? { perMinute: 60, burst: 20 });
      const groupMetadata = ttlCache(5 * 60_000, 1_000);
      const sentIds = new Set<string>();
      const phoneBook = createPhoneBook();
      const report = (p: Promise<void>) => p.catch((err) => log.warn("event not published", { err: String(err) }));
      const conn = createConnection({
        log,
        baileysLog,
        events,
        auth,
        loadBaileys,
        version,
        msgRetryCounterCache: ttlCache(60 * 60_000),
        groupMetadata,
        getMessage: async (id) => (await keys.storedMessage(id))?.message ?? undefined,
        unlinkTimeoutMs: deps.unlinkTimeoutMs,
        reconnectWaitMs: deps.reconnectWaitMs,
        metrics: deps.metrics,
        random: deps.random,
        journal: (b) =>
          deps.journal?.(identity, b) ??
          (deps.journalDir ? createUpsertJournal({ dir: deps.journalDir, identity, proto: b.proto, logger: log, mirror: createTableJournalMirror(deps.db, identity) }) : undefined),
        inbound: {
          events,
          log,
          baileysLog,
          mediaMax,
          report,
          inChat: createChatChains(log),
          keys,
          sentIds,
          groupMetadata,
          pictureChecked: ttlCache(deps.pictureMaxAgeMs ?? 24 * 60 * 60_000, 50_000),
          learnContacts: phoneBook.learn,
        },
      });
      const { ready } = conn;

      return {
        start: conn.start,
        stop: conn.stop,
        logout: conn.logout,
        requestNewQr: conn.requestNewQr,
        requestPairingCode: conn.requestPairingCode,
        isConnected: conn.isConnected,
        isReconnecting: conn.isReconnecting,
        wasReplaced: conn.wasReplaced,
        async send(m) {
          await ready();
          const quoted = m.quotedId ? await keys.storedMessage(m.quotedId) : undefined;
          // over the limit: refused before it takes a turn of the pace or a media slot
          const size = m.media ? (m.media.byteSize ? await m.media.byteSize() : m.media.size) : undefined;
          if (size !== undefined && size > mediaMax) throw new ProviderError("ERR_WAPP_MEDIA_TOO_LARGE");
          await pacer.take();
          const s = await ready();
          sentIds.add(m.messageId);
          if (sentIds.size > 5_000) sentIds.delete(sentIds.values().next().value as string);
          const out = async () => s.sendMessage(m.chatJid, (await outboundContent(m, mediaMax)) as never, { messageId: m.messageId, quoted });
          // media: read, encrypted and uploaded inside one of the process's media slots
          const sent = m.media ? await mediaSlots().run(out) : await out();
          if (sent?.key.id) sentIds.add(sent.key.id);
          await keys.remember(sent);
          return { messageId: sent?.key.id ?? m.messageId };
        },
        async edit(chatJid, targetId, body) {
          const key = await keys.keyOf(chatJid, targetId, true);
          await (await ready()).sendMessage(key.remoteJid!, { text: body, edit: key });
        },
        async delete(chatJid, targetId) {
          const key = await keys.keyOf(chatJid, targetId, true);
          await (await ready()).sendMessage(key.remoteJid!, { delete: key });
        },
        async react(chatJid, targetId, emoji) {
          // a reaction names the message's real key (who sent it, which chat): unknown here, it is refused rather
          // than guessed (a guessed fromMe: true would react to a message of ours that does not exist)
          const key = await keys.storedKey(targetId);
          if (!key) throw new ProviderError("ERR_FETCH_WAPP_MSG", `reaction to a message not kept here (${targetId})`);
          await (await ready()).sendMessage(key.remoteJid!, { react: { text: emoji, key } });
        },
        async markRead(chatJid, ids) {
          const s = await ready();
          await s.readMessages(await keys.readKeys(chatJid, ids));
        },
        async sendPresence(chatJid, presence) {
          await (await ready()).sendPresenceUpdate(presence, chatJid);
        },
        async checkNumber(number) {
          const [found] = (await (await ready()).onWhatsApp(number)) ?? [];
          return found?.exists ? { exists: true, jid: found.jid } : { exists: false };
        },
        async listContacts() {
          await ready();
          return phoneBook.list();
        },
        async checkNumbers(numbers) {
          // one usync query for the lot; WhatsApp answers only the numbers that exist, by jid (a Brazilian mobile
          // may come back without its ninth digit), so answers are matched by canonical number
          const found = (await (await ready()).onWhatsApp(...numbers)) ?? [];
          const byNumber = new Map(found.filter((f) => f.exists).map((f) => [canonicalBrazilianNumber(userOf(f.jid)), f.jid]));
          return numbers.map((number) => {
            const jid = byNumber.get(canonicalBrazilianNumber(number));
            return jid ? { number, exists: true, jid } : { number, exists: false };
          });
        },
        async rejectCall(callId, from) {
          await (await ready()).rejectCall(callId, from);
        },
      };
    },
  };
};
