import type { WAMessage } from "baileys";
import type { Logger } from "../../platform/logger";
import type { ProviderEvents } from "../provider.port";
import { downloader, mediaStreamer } from "./media";
import { ackOf, mapBaileysMessage } from "./message-mapper";
import type { MessageKeys } from "./message-keys";
import type { BaileysContact } from "./phone-contacts";
import type { JournalEntry, UpsertJournal } from "./upsert-journal";
import { ignoredJid, userOf, type Baileys, type Socket, type TtlCache } from "./support";

/** one chain per chat: a slow media download never lets a later message of that chat overtake it */
export const createChatChains = (log: Logger) => {
  const chats = new Map<string, Promise<void>>();
  return (chatJid: string, task: () => Promise<void>) => {
    const next = (chats.get(chatJid) ?? Promise.resolve()).then(task).catch((err) => log.error("message handling failed", { chatJid, err: String(err) }));
    chats.set(chatJid, next);
    void next.finally(() => chats.get(chatJid) === next && chats.delete(chatJid));
    return next;
  };
};

/** What the inbound side of a session keeps across sockets. */
export type InboundContext = {
  events: ProviderEvents;
  log: Logger;
  baileysLog: unknown;
  mediaMax: number;
  report: (p: Promise<void>) => Promise<void>;
  inChat: ReturnType<typeof createChatChains>;
  keys: MessageKeys;
  /** ids of messages sent through this session: their echo (`append`) is neither downloaded nor published */
  sentIds: Set<string>;
  groupMetadata: TtlCache;
  /** chats whose profile picture was looked up in the last day (kept across reconnects) */
  pictureChecked: TtlCache;
  learnContacts: (list: Partial<BaileysContact>[]) => void;
  /** where each upsert is written before anything else (upsert-journal.ts) */
  journal?: UpsertJournal;
};

/**
 * WhatsApp's events of one socket as provider events (message mapping): messages, their updates, presence,
 * calls, LID mappings, contacts and group subjects. Messages of one chat are handled one at a time, in order.
 */
export const wireInbound = (s: Socket, b: Baileys, ctx: InboundContext, replay: JournalEntry[] = []) => {
  const { events, log, report, inChat, groupMetadata, pictureChecked } = ctx;
  s.ev.on("groups.upsert", (groups) => {
    for (const g of groups) groupMetadata.set(g.id, g);
  });
  s.ev.on("groups.update", (updates) => {
    for (const g of updates) if (g.id) groupMetadata.del(g.id);
  });
  s.ev.on("group-participants.update", ({ id }) => groupMetadata.del(id));
  // Baileys keeps the LID <-> number mappings in the auth store for itself; the functions link the contact too
  const forwardMappings = (list: { lid?: string; pn?: string }[]) => {
    for (const { lid, pn } of list) {
      const l = userOf(lid);
      const n = userOf(pn);
      if (!l || !/^\d{8,15}$/.test(n) || !lid?.endsWith("@lid")) continue;
      log.debug("lid mapping", { lid: l, number: n });
      if (events.identity) void report(events.identity({ lid: l, number: n }));
    }
  };
  s.ev.on("lid-mapping.update", (m) => forwardMappings([m].flat() as { lid?: string; pn?: string }[]));
  /**
   * The profile picture of a person who writes: looked up on their first message, then at most once a day
   * (the contact keeps the URL); none, or hidden by their privacy settings, is not an error.
   */
  const lookUpPicture = async (m: { chatJid: string; sender: { number?: string; lid?: string } }) => {
    if (!events.picture || pictureChecked.get(m.chatJid)) return;
    pictureChecked.set(m.chatJid, true);
    try {
      const url = await s.profilePictureUrl(m.chatJid, "image");
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

  s.ev.on("contacts.upsert", (list) => ctx.learnContacts(list));
  s.ev.on("contacts.update", (list) => ctx.learnContacts(list));
  s.ev.on("messaging-history.set", ({ contacts, lidPnMappings }) => {
    ctx.learnContacts(contacts ?? []);
    // history sync brings the LID <-> number pairs of the phone's chats: the functions link those contacts too
    forwardMappings(lidPnMappings ?? []);
  });
  /**
   * A 1:1 chat addressed by LID without its number (a message typed on the phone into an @lid chat comes that
   * way): the number from Baileys' LID mapping, so the functions find the contact the number already has.
   */
  const withNumber = async (msg: WAMessage): Promise<WAMessage> => {
    const k = msg.key;
    if (!k.remoteJid?.endsWith("@lid") || k.remoteJidAlt?.endsWith("@s.whatsapp.net")) return msg;
    const pn = await s.signalRepository.lidMapping.getPNForLID(k.remoteJid).catch(() => null);
    return pn ? { ...msg, key: { ...k, remoteJidAlt: pn } } : msg;
  };

  const download = downloader(b, s, ctx.mediaMax, ctx.baileysLog);
  const stream = mediaStreamer(b, s, ctx.mediaMax, ctx.baileysLog);
  /** one upsert, in its chat's order; its journal entry is settled once its event is durable */
  const handle = (msg: WAMessage, type: "notify" | "append", chatJid: string, entry?: string) =>
    void inChat(chatJid, async () => {
      await ctx.keys.remember(msg).catch((err) => log.warn("message not kept for retries", { err: String(err) }));
      const mapped = mapBaileysMessage(await withNumber(msg), download, stream);
      if (mapped.kind === "message" && mapped.message.isGroup) mapped.message.groupSubject = await subjectOf(chatJid);
      if (mapped.kind === "message" && !mapped.message.isGroup && !mapped.message.fromMe && type === "notify" && !subscribed.has(chatJid)) {
        subscribed.add(chatJid);
        void s.presenceSubscribe(chatJid).catch((err) => log.debug("presence subscribe failed", { chatJid, err: String(err) }));
      }
      try {
        if (mapped.kind === "message") await events.message(mapped.message);
        else if (mapped.kind === "update") await events.messageUpdate(mapped.update);
      } catch (err) {
        // not durable: the entry stays in the journal and is replayed at the next start
        log.warn("event not published: kept in the journal", { chatJid, err: String(err) });
        return;
      }
      if (entry) ctx.journal?.settle(entry);
      if (mapped.kind === "message" && !mapped.message.isGroup && !mapped.message.fromMe && type === "notify") void lookUpPicture(mapped.message);
    });

  // what a previous holder acknowledged to WhatsApp but never published: first, in order
  for (const e of replay) {
    const chatJid = e.msg.key.remoteJid;
    if (chatJid) handle(e.msg, e.type, chatJid, e.sk);
    else ctx.journal?.settle(e.sk);
  }
  if (replay.length) log.info("journaled upserts replayed", { count: replay.length });

  s.ev.on("messages.upsert", ({ messages: list, type }) => {
    if (type !== "notify" && type !== "append") return;
    for (const msg of list) {
      const chatJid = msg.key.remoteJid;
      if (!chatJid || ignoredJid(chatJid)) continue;
      // our own send coming back: the functions already have it (and its media)
      if (msg.key.fromMe && msg.key.id && ctx.sentIds.has(msg.key.id)) continue;
      // before any await: on disk when this handler returns (Baileys has already sent the receipt)
      let entry: string | undefined;
      try {
        entry = ctx.journal?.append(msg, type);
      } catch (err) {
        log.error("upsert not journaled", { chatJid, err: String(err) });
      }
      handle(msg, type, chatJid, entry);
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
