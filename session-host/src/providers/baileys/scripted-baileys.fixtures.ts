import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import * as realBaileys from "baileys";
import type { WAMessage } from "baileys";
import type { Db } from "../../platform/db";
import type { Logger } from "../../platform/logger";
import type { AuthStore, ConnectionState, IncomingCall, ProviderEvents, ProviderMessage } from "../provider.port";
import { createBaileysProvider, type BaileysProviderDeps } from "./baileys.provider";
import { createMemoryMessageStore, type MessageStore } from "./message-store";
/**
 * The provider driven the way Baileys drives it: a scripted socket (the real makeWASocket needs WhatsApp's
 * servers) emitting Baileys' events with Baileys' payload shapes; everything else is the real Baileys module.
 */
export type FakeSocket = {
  config: Record<string, unknown> & { version: number[]; logger: { level: string; info(o: unknown, m?: string): void } };
  ev: EventEmitter;
  /** Baileys' raw node callbacks (`CB:notification`, ...) */
  ws: EventEmitter;
  user?: { id: string };
  ended: boolean;
  loggedOut: boolean;
  sent: { jid: string; content: Record<string, unknown>; opts?: Record<string, unknown> }[];
  read: unknown[];
  presence: string[];
  pairingRequests: string[];
  numberQueries: string[][];
  pictureLookups: string[];
  emit(event: string, payload: unknown): void;
  /** a raw node from WhatsApp, as Baileys' socket emits it to `CB:<tag>` listeners */
  node(tag: string, attrs: Record<string, string>, content?: unknown): void;
  open(): void;
  close(statusCode?: number): void;
};

export const boom = (statusCode?: number) => Object.assign(new Error("Connection Failure"), { output: { statusCode } });

export const harness = (opts: Partial<BaileysProviderDeps> & {
  lidToPn?: Record<string, string>;
  /** the host dies before publishing: message events never resolve */
  hang?: boolean; fetchVersion?: () => Promise<{ version: number[]; isLatest: boolean }>; download?: (m: WAMessage) => Promise<Readable> } = {}) => {
  const sockets: FakeSocket[] = [];
  let versionLookups = 0;
  const makeWASocket = (config: FakeSocket["config"]) => {
    const ev = new EventEmitter();
    const ws = new EventEmitter();
    const s: FakeSocket = {
      config,
      ev,
      ws,
      ended: false,
      loggedOut: false,
      sent: [],
      read: [],
      presence: [],
      pairingRequests: [],
      numberQueries: [],
      pictureLookups: [],
      emit: (event, payload) => ev.emit(event, payload),
      node(tag, attrs, content) {
        const frame = { tag, attrs, content };
        // as Baileys' socket: `CB:tag,attr:value`, then `CB:tag`
        for (const [k, v] of Object.entries(attrs)) ws.emit(`CB:${tag},${k}:${v}`, frame);
        ws.emit(`CB:${tag}`, frame);
      },
      open() {
        s.user = { id: "5511900000000:12@s.whatsapp.net" };
        ev.emit("connection.update", { connection: "open" });
      },
      close(statusCode) {
        ev.emit("connection.update", { connection: "close", lastDisconnect: { error: boom(statusCode), date: new Date() } });
      },
    };
    Object.assign(s, {
      end: () => (s.ended = true),
      logout: async () => {
        s.loggedOut = true;
        s.close(401);
      },
      sendMessage: async (jid: string, content: Record<string, unknown>, o?: Record<string, unknown>) => {
        s.sent.push({ jid, content, opts: o });
        const id = (o?.messageId as string | undefined) ?? `SENT${s.sent.length}`;
        return { key: { remoteJid: jid, id, fromMe: true }, message: { conversation: String(content.text ?? "") } };
      },
      readMessages: async (keys: unknown[]) => void s.read.push(...keys),
      presenceSubscribe: async (jid: string) => void s.presence.push(jid),
      groupMetadata: async (jid: string) => ({ id: jid, subject: "Equipe Vendas", participants: [] }),
      updateMediaMessage: async (m: unknown) => m,
      // Baileys' LID <-> number store (filled by lid-mapping.update and history sync)
      signalRepository: {
        lidMapping: {
          getPNForLID: async (lid: string) => opts.lidToPn?.[lid] ?? null,
          getLIDForPN: async (pn: string) => Object.entries(opts.lidToPn ?? {}).find(([, p]) => p === pn)?.[0] ?? null,
        },
      },
      // as Baileys: the picture's CDN URL, or a 404 (item-not-found) for someone without one
      profilePictureUrl: async (jid: string) => {
        s.pictureLookups.push(jid);
        if (jid.startsWith("5511900000009")) throw Object.assign(new Error("item-not-found"), { output: { statusCode: 404 } });
        return `https://pps.whatsapp.net/v/t61.24694-24/${jid.split("@")[0]}.jpg?oh=x`;
      },
      // as Baileys' usync answers: only the numbers on WhatsApp, by jid; this Brazilian mobile's account predates the ninth digit
      onWhatsApp: async (...numbers: string[]) => {
        s.numberQueries.push(numbers);
        const known: Record<string, string> = { "5511987654321": "551187654321@s.whatsapp.net", "5521912345678": "5521912345678@s.whatsapp.net" };
        return numbers.filter((n) => known[n]).map((n) => ({ jid: known[n]!, exists: true }));
      },
      // as Baileys does: the number becomes creds.me (name "~") and an 8-character code comes back
      requestPairingCode: async (phoneNumber: string) => {
        s.pairingRequests.push(phoneNumber);
        const creds = (config.auth as { creds: Record<string, unknown> }).creds;
        creds.pairingCode = `PAIR${String(s.pairingRequests.length).padStart(4, "0")}`;
        creds.me = { id: `${phoneNumber}@s.whatsapp.net`, name: "~" };
        return creds.pairingCode as string;
      },
    });
    sockets.push(s);
    return s;
  };
  const baileys = {
    ...realBaileys,
    makeWASocket,
    fetchLatestWaWebVersion: async () => {
      versionLookups++;
      return opts.fetchVersion ? opts.fetchVersion() : { version: [2, 3000, 1_029_999_999], isLatest: true };
    },
    downloadMediaMessage: async (m: WAMessage) => (opts.download ? opts.download(m) : Readable.from([Buffer.from("media")])),
  } as unknown as typeof realBaileys;

  const lines: { msg: string; fields: Record<string, unknown> }[] = [];
  const logger: Logger = (() => {
    const make = (base: Record<string, unknown>): Logger => {
      const put = (msg: string, f?: Record<string, unknown>) => void lines.push({ msg, fields: { ...base, ...f } });
      return { debug: put, info: put, warn: put, error: put, child: (f) => make({ ...base, ...f }) };
    };
    return make({});
  })();
  const authItems = new Map<string, unknown>();
  const auth: AuthStore = {
    async get(type, ids) {
      return Object.fromEntries(ids.filter((id) => authItems.has(`${type}#${id}`)).map((id) => [id, authItems.get(`${type}#${id}`)]));
    },
    async set(data) {
      for (const [type, entries] of Object.entries(data))
        for (const [id, v] of Object.entries(entries)) {
          if (v == null) authItems.delete(`${type}#${id}`);
          else authItems.set(`${type}#${id}`, v);
        }
    },
    async clear() {
      authItems.clear();
    },
  };
  const connection: ConnectionState[] = [];
  const messages: ProviderMessage[] = [];
  const calls: IncomingCall[] = [];
  const identities: { lid: string; number: string }[] = [];
  const pictures: { chatJid: string; url: string }[] = [];
  const stored: MessageStore = createMemoryMessageStore();
  const events: ProviderEvents = {
    connection: async (c) => void connection.push(c),
    message: async (m) => {
      if (opts.hang) return new Promise<void>(() => undefined);
      // stores the media as the host does (the download is part of handling the message)
      if (m.media) await m.media.download().catch(() => undefined);
      messages.push(m);
    },
    messageUpdate: async () => undefined,
    presence: async () => undefined,
    call: async (c) => void calls.push(c),
    identity: async (link) => void identities.push(link),
    picture: async (p) => void pictures.push({ chatJid: p.chatJid, url: p.url }),
  };
  const counted: string[] = [];
  const metrics = { count: (name: string) => void counted.push(name) };
  const provider = createBaileysProvider({ logger, db: {} as Db, baileys: async () => baileys, messages: () => stored, versionTimeoutMs: 200, unlinkTimeoutMs: 2_000, metrics, ...opts });
  const session = provider.createSession({ identity: { companyId: 1, whatsappId: 2 }, events, auth });
  const latest = () => sockets[sockets.length - 1]!;
  return { session, sockets, latest, connection, messages, calls, identities, pictures, lines, authItems, stored, counted, versionLookups: () => versionLookups };
};

export const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
export const until = async (what: string, check: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await tick(10);
  }
};

export const textMsg = (id: string, remoteJid: string, text: string, extra: Partial<WAMessage["key"]> = {}): WAMessage =>
  ({ key: { remoteJid, id, fromMe: false, ...extra }, message: { conversation: text }, messageTimestamp: 1_763_800_000, pushName: "Maria" }) as WAMessage;

