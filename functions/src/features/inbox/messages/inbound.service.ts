import { messageKindOf } from "@atende/shared/domain/media/media-sniff";
import type { InboundEvent, WaMessage } from "@atende/shared/contracts/queue-messages";
import type { MediaType, Message } from "@atende/shared/domain/messages/message";
import type { Logger } from "../../../platform/logger";
import type { ContactsService } from "../contacts/contacts.service";
import type { AutomationService } from "../automation/automation.service";
import { toBotTicket } from "../bots/bot-facade";
import type { CustomerMessageHandler } from "../inbox-ports";
import { localClock } from "../automation/templates";
import type { InboxDirectory } from "../tickets/inbox-directory";
import type { InboxEvents } from "../tickets/inbox-events";
import { ExtraConditionFailed, VersionConflict, type TicketChanges } from "../tickets/ticket-changes";
import type { TicketLifecycle } from "../tickets/ticket-lifecycle";
import type { TicketRecord, TicketsRepository } from "../tickets/tickets.repository";
import type { MessagesRepository } from "./messages.repository";
import { newMessageId } from "../message-ids";
import { startEarlyReads } from "../../../platform/unit-of-work";
import { previewOf, type OutboundService } from "./outbound.service";

type Ev<T extends InboundEvent["type"]> = Extract<InboundEvent, { type: T }>;

const MEDIA_TYPE: Record<WaMessage["type"], MediaType> = {
  chat: "chat",
  image: "image",
  audio: "audio",
  video: "video",
  document: "application",
  sticker: "sticker",
  locationMessage: "locationMessage",
  contactMessage: "contactMessage",
  reactionMessage: "reactionMessage",
  call_log: "call_log",
};

/**
 * The stored media type: what WhatsApp called the message, except that media whose (sniffed, see the session host)
 * type is not one a browser shows inline is a document: an "image" that is really an SVG is never shown as an image.
 */
const mediaTypeOf = (wm: WaMessage): MediaType => {
  const type = MEDIA_TYPE[wm.type];
  const shown = type === "image" || type === "sticker" || type === "audio" || type === "video";
  return shown && wm.media && messageKindOf({ mime: wm.media.mimetype }) === "document" ? "application" : type;
};

const CALL_NOTICE =
  "*Mensagem automática:*\nAs chamadas de voz e vídeo estão desabilitadas para este WhatsApp, por favor envie uma mensagem de texto. Obrigado.";

/**
 * The inbound pipeline (ARCHITECTURE "Inbound message"): dedupe by WhatsApp id -> contact -> the contact's
 * pending/open ticket on this connection (or a new one, race-safe) -> message + ticket in one transaction ->
 * realtime -> automation. Also acks/edits/deletes, presence and calls.
 */
export const createInboundService = (deps: {
  messages: MessagesRepository;
  tickets: TicketsRepository;
  changes: TicketChanges;
  contacts: ContactsService;
  directory: InboxDirectory;
  events: InboxEvents;
  outbound: OutboundService;
  automation: AutomationService;
  lifecycle: TicketLifecycle;
  clock: () => Date;
  logger: Logger;
  /** told of each customer message automation was already done with (bots, ADR 0026) */
  customerMessageHandlers?: CustomerMessageHandler[];
  /** point reads started side by side inside `fn` answered by one BatchGetItem (platform/db/coalesced-reads.ts) */
  coalesceReads?: <T>(fn: () => Promise<T>) => Promise<T>;
}) => {
  const { messages, tickets, changes, contacts, directory, events, outbound, automation, lifecycle, clock, logger } = deps;
  const customerMessageHandlers = deps.customerMessageHandlers ?? [];
  const together = deps.coalesceReads ?? (<T>(fn: () => Promise<T>) => fn());

  const ticketOfMessage = async (companyId: number, m: Message) => tickets.findById(companyId, m.ticketId);
  /**
   * An ack, edit or delete on the message's ticket: the ticket and the contact read in one call (ADR 0045).
   * `words: false`: the message's words did not change (the search index is not told, docs/adr/0061).
   */
  const publishUpdate = async (companyId: number, m: Message, opts: { words?: boolean } = {}) => {
    const { ticket: t, contact } = await tickets.findWithContact(companyId, m.ticketId, m.contactId);
    if (t) await events.message("update", m, t, undefined, contact?.id === t.contactId ? contact : undefined, opts);
  };

  return {
    async message(ev: Ev<"message">): Promise<void> {
      const { companyId, whatsappId, message: wm } = ev;
      const party = wm.isGroup
        ? { jid: wm.chatJid, isGroup: true, groupSubject: wm.groupSubject }
        : wm.fromMe
          ? { jid: wm.chatJid }
          : { jid: wm.chatJid, number: wm.sender.number, lid: wm.sender.lid ?? (wm.sender.jid.endsWith("@lid") ? wm.sender.jid.split("@")[0] : undefined), pushName: wm.sender.pushName, username: wm.sender.username };
      // side by side, in one BatchGetItem (docs/adr/0049): the dedupe read, the contact's identity (read by the
      // contact upsert below; a reaction or a dropped message reads it for nothing, in the same call) and the
      // company's lookups (usually reused: the directory's reuse)
      // (+ the other features' early reads of this event, docs/adr/0058: the LGPD keywords join the BatchGetItem,
      // the campaign confirmations' and the socket list's queries go beside it)
      const [seen, loaded, knownContactId] = await together(() => {
        const first = Promise.all([messages.exists(companyId, wm.id), directory.load(companyId), wm.type === "reactionMessage" ? null : contacts.identifyParty(companyId, party)]);
        startEarlyReads();
        return first;
      });
      if (seen) return; // a redelivery or our own echo
      let dir = loaded;
      // the lookups are reused for a moment (INBOX_DIRECTORY_TTL_MS): a connection created since is read fresh,
      // so its first customer message is never dropped as coming from an unknown connection
      if (!dir.whatsapps.has(whatsappId)) dir = await directory.load(companyId, { fresh: true });
      const wa = dir.whatsapps.get(whatsappId);
      if (!wa) {
        logger.warn("inbound: unknown connection", { companyId, whatsappId });
        return;
      }
      if (wm.isGroup && dir.setting("CheckMsgIsGroup") === "enabled") return;

      // reactions annotate the target message
      if (wm.type === "reactionMessage" && wm.reaction) {
        const target = await messages.findById(companyId, wm.reaction.targetId);
        if (!target) return;
        const others = target.reactions.filter((r) => r.senderJid !== wm.sender.jid);
        const reactions = wm.reaction.emoji ? [...others, { emoji: wm.reaction.emoji, fromMe: wm.fromMe, senderJid: wm.sender.jid }] : others;
        const updated = await messages.update(companyId, target.id, { reactions, updatedAt: clock().toISOString() });
        const t = updated ? await ticketOfMessage(companyId, updated) : null;
        if (updated && t) await events.message("update", updated, t, dir);
        return;
      }

      // the contact and, for the contact the identity named, its pending/open ticket's lock, in one BatchGetItem
      // (docs/adr/0049); a contact found or made under another id (a new contact, another identity) reads its own
      const [{ contact, created }, openOfKnown] = await together(() =>
        Promise.all([
          contacts.upsertParty(companyId, whatsappId, party, { firstIdentityId: knownContactId }),
          knownContactId === null ? null : lifecycle.openTicketId(companyId, knownContactId, whatsappId),
        ]),
      );
      const now = clock();
      const at = new Date(Math.min(now.getTime(), wm.timestamp > 1e12 ? wm.timestamp : wm.timestamp * 1000 || now.getTime())).toISOString();
      const base: Omit<Message, "ticketId" | "queueId"> = {
        id: wm.id,
        companyId,
        contactId: contact.id,
        body: wm.body,
        fromMe: wm.fromMe,
        mediaType: mediaTypeOf(wm),
        mediaUrl: null,
        mediaKey: wm.media?.key ?? null,
        mediaMimetype: wm.media?.mimetype ?? null,
        mediaName: wm.media?.filename ?? null,
        quotedMsgId: wm.quotedId ?? null,
        isDeleted: false,
        isEdited: false,
        isForwarded: wm.isForwarded,
        ack: wm.fromMe ? 1 : 0,
        // media the host refused (over the size limit): the ticket says so instead of showing a broken file
        error: wm.mediaRefused ? "ERR_WAPP_MEDIA_TOO_LARGE" : null,
        reactions: [],
        participant: wm.isGroup ? (wm.sender.pushName ?? wm.sender.number ?? wm.sender.jid) : null,
        userId: null,
        createdAt: at,
        // the provider's order within the chat: the conversation sorts a second's messages by it (docs/adr/0066)
        ...(wm.seq !== undefined ? { seq: wm.seq } : {}),
        // the id of a pressed reply button / list row: a flow's menu reads the choice by id (issue 30)
        ...(wm.replyId ? { replyId: wm.replyId } : {}),
        updatedAt: at,
      };
      const preview = previewOf(base);
      const messageFor = (t: TicketRecord): Message => ({ ...base, ticketId: t.id, queueId: t.queueId });

      // a rating answer for the ticket just closed (never reopens it); anything else starts a new cycle. A contact this
      // message created has no ticket and no rating wait: neither is read (docs/adr/0058; a ticket a concurrent event
      // opened meanwhile is found by the lock's condition, as for any race of two creations)
      const firstOpenId = contact.id === knownContactId ? openOfKnown : created ? null : await lifecycle.openTicketId(companyId, contact.id, whatsappId);
      if (!wm.fromMe && !wm.isGroup && firstOpenId === null && !created) {
        const rated = await lifecycle.ratingAnswer(companyId, contact.id, whatsappId, wm.body, now);
        if (rated) {
          const m = messageFor(rated.ticket);
          try {
            const after = await automation.recordRating(rated.ticket, contact, rated.rating, dir, [messages.createItem(m)]);
            await events.message("create", m, after, dir, contact);
          } catch (e) {
            if (!(e instanceof ExtraConditionFailed)) throw e;
          }
          return;
        }
      }

      // the contact's pending/open ticket on this connection, or a new pending one (ticket-lifecycle.ts)
      const made: { message?: Message } = {};
      const stored = await lifecycle.receive(
        { companyId, contact, whatsapp: wa, chatJid: wm.chatJid, arrival: { preview, at, fromMe: wm.fromMe, messageId: wm.id }, openId: firstOpenId, now },
        (t) => messages.createItem((made.message = messageFor(t))),
      );
      if (!stored) return; // stored by a concurrent delivery
      const { before, after } = stored;
      const message = made.message;
      if (!message) throw new Error("inbound: could not store the message");
      await events.message("create", message, after, dir, contact);
      await events.ticketUpdated(after, before, dir, contact);
      let toFlow: boolean | void = false;
      try {
        // each step gets the ticket as stored after the previous one's sends (they write it without reading it again)
        const opened = !before && !message.fromMe ? await automation.onOpened(after, contact, dir) : after;
        toFlow = await automation.onInbound(opened, contact, message, dir);
      } catch (err) {
        // the message is stored; a failing bot must not make SQS redeliver it
        logger.error("inbound: automation failed", { companyId, ticketId: after.id, err: String(err) });
      }
      // automation was already done with this ticket before this message (its menus and option tree did not take it):
      // the message is the bots' (the message that chose a queue only gets the queue's greeting)
      // (or automation stood aside for a flow that starts on this message, issue 30)
      if (!message.fromMe && (after.bot.stage === "done" || toFlow === true)) {
        for (const handle of customerMessageHandlers) {
          try {
            await handle(toBotTicket(after), message);
          } catch (err) {
            logger.error("inbound: customer message handler failed", { companyId, ticketId: after.id, err: String(err) });
          }
        }
      }
    },

    /** Acks move forward only; edits and deletes made on WhatsApp are applied. */
    async messageUpdate(ev: Ev<"message.update">): Promise<void> {
      const now = clock();
      let m: Message | null = null;
      if (ev.ack !== undefined) m = (await messages.advanceAck(ev.companyId, ev.messageId, ev.ack, now, true)) ?? m;
      if (ev.body !== undefined || ev.isDeleted) {
        m =
          (await messages.update(ev.companyId, ev.messageId, {
            ...(ev.body !== undefined ? { body: ev.body, isEdited: true } : {}),
            ...(ev.isDeleted ? { isDeleted: true } : {}),
            updatedAt: now.toISOString(),
          })) ?? m;
      }
      if (!m) return;
      // a receipt alone changes none of the message's words: the search index is not told (docs/adr/0061)
      await publishUpdate(ev.companyId, m, ev.body === undefined && !ev.isDeleted ? { words: false } : {});
    },

    /** The session host accepted (ack 1) or refused our command; a failure is shown on the message with its reason. */
    async commandResult(ev: Ev<"command.result">): Promise<void> {
      const id = ev.messageId ?? ev.commandId;
      const now = clock();
      const m = ev.ok
        ? await messages.advanceAck(ev.companyId, id, 1, now, true)
        : await messages.update(ev.companyId, id, { error: ev.error || "ERR_SENDING_WAPP_MSG", updatedAt: now.toISOString() });
      if (!m) return;
      // an ack or a send error: the message's words are as indexed when it was stored (docs/adr/0061)
      await publishUpdate(ev.companyId, m, { words: false });
    },

    async presence(ev: Ev<"presence">): Promise<void> {
      const contact = await contacts.findByJid(ev.companyId, ev.chatJid);
      if (!contact) return;
      const openId = await tickets.findOpenId(ev.companyId, contact.id, ev.whatsappId);
      const t = openId ? await tickets.findById(ev.companyId, openId) : null;
      if (t) await events.presence(t, ev.presence);
    },

    /** Calls with the `call` setting disabled: reject, tell the caller, log it in their ticket (never an empty ticket). */
    async call(ev: Ev<"call">): Promise<void> {
      const dir = await directory.load(ev.companyId);
      if (dir.setting("call") === "enabled") return;
      await outbound.command({ type: "rejectCall", commandId: `reject-${ev.callId}`, companyId: ev.companyId, whatsappId: ev.whatsappId, callId: ev.callId, from: ev.from });
      const contact = await contacts.findByJid(ev.companyId, ev.from);
      const openId = contact ? await tickets.findOpenId(ev.companyId, contact.id, ev.whatsappId) : null;
      const t = openId ? await tickets.findById(ev.companyId, openId) : null;
      if (!t || !contact) {
        const id = newMessageId();
        await messages.reserveEchoId(ev.companyId, id, clock());
        await outbound.command({ type: "send", commandId: id, messageId: id, companyId: ev.companyId, whatsappId: ev.whatsappId, chatJid: ev.from, body: CALL_NOTICE });
        return;
      }
      const now = clock();
      const at = now.toISOString();
      const log: Message = {
        id: `call-${ev.callId}`,
        companyId: ev.companyId,
        ticketId: t.id,
        contactId: contact.id,
        body: `${ev.isVideo ? "Chamada de vídeo" : "Chamada de voz"} perdida às ${localClock(now, dir.company?.timezone).time}`,
        fromMe: false,
        mediaType: "call_log",
        mediaUrl: null,
        mediaKey: null,
        mediaMimetype: null,
        mediaName: null,
        quotedMsgId: null,
        isDeleted: false,
        isEdited: false,
        isForwarded: false,
        ack: 0,
        error: null,
        reactions: [],
        participant: null,
        queueId: t.queueId,
        userId: null,
        createdAt: at,
        updatedAt: at,
      };
      try {
        const after = await changes.apply(t, { lastMessage: log.body, lastMessageLc: log.body.toLowerCase(), lastMessageAt: at, lastFromMe: false }, { byUserId: null, now, extra: [messages.createItem(log)] });
        await events.message("create", log, after, dir, contact);
        await outbound.send(after, { body: CALL_NOTICE, userId: null }, { dir, contact, current: true });
      } catch (e) {
        if (!(e instanceof ExtraConditionFailed) && !(e instanceof VersionConflict)) throw e;
      }
    },
  };
};
export type InboundService = ReturnType<typeof createInboundService>;
