import { sniffMedia, withDeclaredAv } from "@atende/shared/domain/media/media-sniff";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Message } from "@atende/shared/domain/messages/message";
import type { UrlGuard } from "../../../platform/net/public-url-guard";
import { companyOfMediaKey, mediaKeyFor, type MediaStore } from "../../../platform/storage/media-store.port";
import type { BotAction, BotHistoryMessage } from "../../bots/bot-engine.port";
import type { BotInbox, BotStoredMessage, BotTicket } from "../../bots/bot-inbox.port";
import type { ContactsRepository } from "../contacts/contacts.repository";
import { idempotentMessageId } from "../message-ids";
import type { MessagesRepository } from "../messages/messages.repository";
import type { OutboundService } from "../messages/outbound.service";
import type { TicketNotesRepository } from "../notes/ticket-notes.repository";
import type { InboxDirectory } from "../tickets/inbox-directory";
import type { InboxEvents } from "../tickets/inbox-events";
import type { TicketChanges } from "../tickets/ticket-changes";
import type { TicketRecord, TicketsRepository } from "../tickets/tickets.repository";
import type { TicketsService } from "../tickets/tickets.service";

/** The bot's own messages: user 0 in the idempotent ids (no person has id 0). */
const BOT_ID_USER = 0;
/** A flow's media file larger than this is not fetched (WhatsApp's own ceiling for documents is 100 MB). */
export const BOT_MEDIA_MAX_BYTES = 64 * 1024 * 1024;
/** How long a flow's media server gets to answer. */
const BOT_MEDIA_TIMEOUT_MS = 20_000;

/**
 * Fetches a flow's media by URL as the flows' own calls are made (ADR 0027): the URL guard first (no loopback,
 * private or metadata addresses in AWS), no redirects followed, a time limit, and a size cap read while streaming.
 */
export const fetchBotMedia = async (url: string, guard: UrlGuard, fetchFn: typeof fetch = fetch): Promise<{ bytes: Uint8Array; contentType: string | undefined }> => {
  await guard(url);
  const res = await fetchFn(url, { redirect: "manual", signal: AbortSignal.timeout(BOT_MEDIA_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`bot media answered ${res.status}`);
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > BOT_MEDIA_MAX_BYTES) throw new Error(`bot media too large (${declared} bytes)`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > BOT_MEDIA_MAX_BYTES) {
        await reader.cancel();
        throw new Error(`bot media too large (over ${BOT_MEDIA_MAX_BYTES} bytes)`);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, contentType: res.headers.get("content-type") ?? undefined };
};

/** How a stored file goes out, by its type. */
const mediaKindOf = (mimetype: string): "image" | "audio" | "video" | "document" =>
  mimetype.startsWith("image/") && mimetype !== "image/svg+xml" ? "image" : mimetype.startsWith("audio/") ? "audio" : mimetype.startsWith("video/") ? "video" : "document";

/** Types a bot never reads as conversation (reactions live on their target; calls are not words). */
const NOT_CONVERSATION = new Set(["reactionMessage", "call_log"]);

export const toBotTicket = (t: TicketRecord): BotTicket => ({
  id: t.id,
  uuid: t.uuid,
  companyId: t.companyId,
  status: t.status,
  userId: t.userId,
  queueId: t.queueId,
  whatsappId: t.whatsappId,
  contactId: t.contactId,
  isGroup: t.isGroup,
  protocol: t.cycle?.protocol ?? null,
});

const toStored = (m: Message): BotStoredMessage => ({
  id: m.id,
  ticketId: m.ticketId,
  fromMe: m.fromMe,
  body: m.body,
  mediaType: m.mediaType,
  mediaUrl: m.mediaUrl,
  mediaKey: m.mediaKey,
  mediaMimetype: m.mediaMimetype,
  transcript: m.transcript ?? null,
  ...(m.replyId ? { replyId: m.replyId } : {}),
  createdAt: m.createdAt,
});

/**
 * What the bot runner may do in the inbox (bots/bot-inbox.port.ts, ADR 0026), built from the inbox's parts: reads of
 * the ticket and its conversation, the bot's messages through the outbound path (as automation's), the handover
 * (an internal note by the system, the ticket moved to the top of its queue's pending list), the transcript of an
 * audio, and the bot's ticket actions through the tickets service's system change.
 */
export const createBotFacade = (deps: {
  tickets: Pick<TicketsRepository, "findById">;
  ticketsService: Pick<TicketsService, "changeBySystem">;
  changes: TicketChanges;
  contacts: Pick<ContactsRepository, "findById" | "save">;
  messages: Pick<MessagesRepository, "findById" | "pageByContact" | "update">;
  notes: Pick<TicketNotesRepository, "create">;
  outbound: OutboundService;
  directory: InboxDirectory;
  events: InboxEvents;
  media: MediaStore;
  clock: () => Date;
  /** the outbound URL guard of the flows (platform/net/public-url-guard.ts): media by URL goes through it too */
  urlGuard: UrlGuard;
  fetch?: typeof fetch;
  /** a turn's reads its sends will make (the company's open sockets, memoised in the unit of work), started early */
  earlyReads?: (companyId: number) => void;
}): BotInbox => {
  const { tickets, ticketsService, changes, contacts, messages, notes, outbound, directory, events, media, clock, urlGuard } = deps;
  /**
   * What this facade read for a BotTicket it answered (the ticket record; the contact once `context` read it): a send
   * with that BotTicket writes on it without reading again (the version guards the write; a conflict reads afresh),
   * and leaves the record it wrote for the turn's next send. Keyed by the object, so nothing outlives the turn.
   */
  const held = new WeakMap<BotTicket, { record: TicketRecord; contact?: Contact | null; lastId?: string }>();
  const record = async (t: BotTicket) => {
    const r = await tickets.findById(t.companyId, t.id);
    if (!r) throw Object.assign(new Error("ticket gone"), { code: "ERR_NO_TICKET_FOUND" });
    return r;
  };
  /** A flow's answer written on the ticket's contact (issue 30): e-mail, name or one extra field; the contact page shows it. */
  const saveContact = async (bt: BotTicket, a: Extract<BotAction, { type: "saveContact" }>) => {
    const current = await contacts.findById(bt.companyId, bt.contactId);
    if (!current) return;
    const value = a.value.slice(0, a.field === "extra" ? 1000 : 250);
    let next: Contact;
    if (a.field === "extra") {
      const name = (a.key ?? "").trim().slice(0, 100);
      if (!name) return;
      const has = current.extraInfo.some((e) => e.name === name);
      next = { ...current, extraInfo: has ? current.extraInfo.map((e) => (e.name === name ? { name, value } : e)) : [...current.extraInfo, { name, value }].slice(-50) };
    } else next = { ...current, [a.field]: value };
    next.updatedAt = clock().toISOString();
    await contacts.save(next, null);
    await events.contactUpdated(next);
  };
  return {
    async ticket(companyId, ticketId, opts = {}) {
      const contactId = opts.turn?.contactId;
      if (opts.turn) deps.earlyReads?.(companyId);
      const [t, contact] = await Promise.all([tickets.findById(companyId, ticketId), contactId !== undefined ? contacts.findById(companyId, contactId) : undefined]);
      if (!t) return null;
      const bt = toBotTicket(t);
      // a contact read beside it counts only while it is still the ticket's (a merge may have moved the ticket)
      held.set(bt, { record: t, ...(contact !== undefined && contact?.id === t.contactId ? { contact } : {}) });
      return bt;
    },

    async context(t) {
      // a contact `ticket` read beside the ticket is already checked to be its own
      const h = held.get(t);
      const [dir, contact] = await Promise.all([directory.load(t.companyId), h?.contact ?? contacts.findById(t.companyId, t.contactId)]);
      if (h && h.record.contactId === contact?.id) h.contact = contact;
      const wa = t.whatsappId !== null ? dir.whatsapps.get(t.whatsappId) : undefined;
      if (!dir.company || !wa || !contact) return null;
      const queue = t.queueId !== null ? dir.queues.get(t.queueId) : undefined;
      return {
        company: { id: dir.company.id, name: dir.company.name },
        connection: { id: wa.id, name: wa.name },
        queue: queue ? { id: queue.id, name: queue.name } : null,
        contact: { id: contact.id, name: contact.name, number: contact.number, ...(contact.email ? { email: contact.email } : {}) },
      };
    },

    async message(companyId, ticketId, messageId) {
      const m = await messages.findById(companyId, messageId);
      return m && m.ticketId === ticketId ? toStored(m) : null;
    },

    async history(companyId, ticketId, upTo, limit, waiting = []) {
      const t = await tickets.findById(companyId, ticketId);
      if (!t) return [];
      const later = new Set(waiting);
      // the contact's conversation, newest first, holds this ticket's messages among earlier tickets' ones
      const kept: Message[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 5 && kept.length < limit; page++) {
        const out = await messages.pageByContact(companyId, t.contactId, Math.min(100, limit * 2 + 10), cursor);
        for (const m of out.items) {
          if (m.ticketId !== ticketId || m.isDeleted || m.internal || NOT_CONVERSATION.has(m.mediaType) || m.id === upTo.id) continue;
          // the customer's later messages wait for their own turns
          if (!m.fromMe && (m.createdAt > upTo.createdAt || later.has(m.id))) continue;
          kept.push(m);
        }
        cursor = out.next ?? undefined;
        if (!cursor || out.items.some((m) => m.createdAt < t.createdAt)) break;
      }
      const current = await messages.findById(companyId, upTo.id);
      // the message being answered comes last, whatever the second it carries
      return [...kept.slice(0, limit - 1).reverse(), ...(current ? [current] : [])]
        .map((m): BotHistoryMessage => ({ fromMe: m.fromMe, body: m.transcript ?? m.body, ...(m.mediaType !== "chat" ? { mediaType: m.mediaType } : {}), createdAt: m.createdAt }));
    },

    async readMedia(_companyId, m) {
      const obj = m.mediaKey ? await media.get(m.mediaKey) : null;
      if (!obj) throw new Error("media not found");
      return obj.body;
    },

    async saveTranscript(companyId, ticketId, messageId, transcript) {
      const updated = await messages.update(companyId, messageId, { transcript: transcript.slice(0, 10_000) });
      const t = updated ? await tickets.findById(companyId, ticketId) : null;
      if (updated && t) await events.message("update", updated, t);
    },

    async send(bt, out, key, opts = {}) {
      const h = held.get(bt);
      const t = h?.record ?? (await record(bt));
      const dir = await directory.load(t.companyId);
      const id = idempotentMessageId(t.companyId, BOT_ID_USER, `bot:${key}`);
      const onlyIf = opts.onlyIf ? (cur: TicketRecord) => opts.onlyIf!(toBotTicket(cur)) : undefined;
      const ctx = { dir, ...(h ? { current: true, ...(h.contact !== undefined ? { contact: h.contact } : {}) } : {}) };
      // the turn's order (ADR 0106): after the message this turn sent last; say when another one follows
      const order = { ...(h?.lastId ? { after: h.lastId } : {}), ...(opts.followed ? { followed: true } : {}) };
      /** one message out; the record it wrote is the one the turn's next send writes on */
      const sendOne = async (input: Parameters<OutboundService["send"]>[1]) => {
        const done = await outbound.send(t, { ...input, ...order, ...(onlyIf ? { onlyIf } : {}) }, ctx);
        if (done.skipped) return false;
        // a message whose command could not be queued settles nothing: the next one must not wait for it
        held.set(bt, { ...h, record: done.ticket, lastId: done.message.error ? undefined : done.message.id });
        return true;
      };
      if (out.kind === "text") return sendOne({ body: out.body, userId: null, id });
      if (out.kind === "menu") return sendOne({ body: out.body, interactive: out.interactive, userId: null, id });
      if (out.kind === "voice") {
        const mediaKey = mediaKeyFor(t.companyId, id, "voz.ogg");
        await media.put(mediaKey, out.audio, out.mimetype);
        return sendOne({ body: "", media: { key: mediaKey, mimetype: out.mimetype, filename: "voz.ogg", kind: "audio", ptt: true }, userId: null, id });
      }
      if (out.kind === "stored") {
        // only the company's own media (a key names its company first); the stored type, checked against the bytes
        const obj = companyOfMediaKey(out.key) === t.companyId ? await media.get(out.key) : null;
        // a file gone from the store (deleted list option, retention) is not a reason to retry the turn: the caption goes alone
        if (!obj) return out.caption ? sendOne({ body: out.caption, userId: null, id }) : true;
        const mimetype = withDeclaredAv(sniffMedia(obj.body, out.filename), obj.mimetype).mime;
        return sendOne({ body: out.caption ?? "", media: { key: out.key, mimetype, filename: out.filename, kind: mediaKindOf(mimetype) }, userId: null, id });
      }
      // media by URL (flows): fetched into our storage first, so the conversation keeps it
      const { bytes, contentType } = await fetchBotMedia(out.url, urlGuard, deps.fetch);
      const filename = out.filename ?? (new URL(out.url).pathname.split("/").pop() || out.mediaType);
      // an outside server's content-type is not trusted: the bytes decide (shared media sniffer, ADR 0008)
      const mimetype = withDeclaredAv(sniffMedia(bytes, filename), contentType).mime;
      const mediaKey = mediaKeyFor(t.companyId, id, filename);
      await media.put(mediaKey, bytes, mimetype);
      return sendOne({ body: out.caption ?? "", media: { key: mediaKey, mimetype, filename, kind: out.mediaType }, userId: null, id });
    },

    async handover(bt, note) {
      const now = clock();
      const stored = await notes.create({ companyId: bt.companyId, note: note.slice(0, 5000), ticketId: bt.id, contactId: bt.contactId, userId: null }, now);
      // to the top of its queue's pending list, recorded as the bot's step; nothing else changes (pending, no owner)
      const out = await changes.mutate(bt.companyId, bt.id, (t) => (t.status === "closed" ? null : { patch: { bot: { ...t.bot, stage: "done" } }, action: "bot" }), {
        byUserId: null,
        now,
      });
      if (out) await events.ticketUpdated(out.after, out.before);
      return void stored;
    },

    async apply(bt, action) {
      if (action.type === "saveContact") return saveContact(bt, action);
      await ticketsService.changeBySystem(bt.companyId, bt.id, action);
    },
  };
};
