import { randomBytes } from "node:crypto";
import type { MessageListResponse, MessageView } from "@atende/shared/contracts/http/messages";
import { FORWARD_PAUSE_MS, MESSAGES_PAGE_SIZE } from "@atende/shared/constants/business";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Message, SendMessageInput } from "@atende/shared/domain/messages/message";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import type { AutomaticKind, AutomaticSkipReason, AutomaticValues } from "@atende/shared/domain/cloud-api/automatic-messages";
import { isVoiceNote } from "@atende/shared/domain/messages/message";
import { watchesSilently } from "@atende/shared/domain/permissions/permissions";
import { hashQuery, pageByNumberWith, type PageCursors } from "../../../platform/db/page-cursors";
import { AppError } from "../../../platform/errors";
import type { MediaStore } from "../../../platform/storage/media-store.port";
import { mediaKeyFor } from "../../../platform/storage/media-store.port";
import { checkUpload } from "../../../platform/http/upload-check";
import { messageKindOf } from "@atende/shared/domain/media/media-sniff";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { ContactsRepository } from "../contacts/contacts.repository";
import { chatJidOf } from "../contacts/contact-identity";
import type { Directory, InboxDirectory } from "../tickets/inbox-directory";
import { toTicketView } from "../tickets/inbox-directory";
import type { InboxEvents } from "../tickets/inbox-events";
import { OpenTicketExists, type TicketChanges } from "../tickets/ticket-changes";
import { contactCardFields, type ContactCard, type TicketRecord, type TicketsRepository } from "../tickets/tickets.repository";
import type { TicketsService } from "../tickets/tickets.service";
import { toMessageView } from "./message-view";
import type { MessagesRepository } from "./messages.repository";
import { idempotentMessageId, newMessageId } from "../message-ids";
import type { OutboundMedia, OutboundService } from "./outbound.service";
import type { AuditRecorder } from "../../audit/audit.port";
import { auditEntry } from "../../audit/audit-diff";

export type UploadedFile = { name: string; type: string; bytes: Uint8Array };

/**
 * A ticket's read started before the caller is known (GET /messages/{ticketId} starts it beside the caller's own read,
 * docs/adr/0059): `list` uses it only for this company and ticket, and only after checking the caller may see it.
 */
export type TicketReadAhead = { companyId: number; ticketId: number; ticket: Promise<TicketRecord | null> };

/** Pages of a conversation served by one read from its newest message (page 1 and 2: no cursor read or write, docs/adr/0059). */
const FIRST_PAGES_IN_ONE_READ = 2;

/**
 * What the connection's provider allows (docs/adr/0028-cloud-api-provider.md), asked before anything is stored:
 * a Cloud API connection refuses editing and deleting (ERR_CHANNEL_UNSUPPORTED) and free-form content outside
 * the 24-hour window (ERR_WINDOW_CLOSED); templates are prepared (approved, every variable filled) by it.
 */
export type ChannelRules = {
  /** `bulk`: a campaign message (free-form campaign messages are refused on a Cloud API connection) */
  assertOutbound(companyId: number, whatsappId: number | null, chatJid: string, action: "text" | "media" | "react" | "template" | "edit" | "delete", opts?: { bulk?: boolean }): Promise<void>;
  prepareTemplate(companyId: number, whatsappId: number, t: TemplateSend): Promise<{ body: string; template: { name: string; language: string; components: Record<string, unknown>[] } }>;
  /** an automatic message (rating request, inactivity message, transfer notice): its text, the connection's template, or skipped */
  automaticMessage(
    companyId: number,
    whatsappId: number | null,
    chatJid: string,
    kind: AutomaticKind,
    values: AutomaticValues,
  ): Promise<{ send: "text" } | { send: "template"; prepared: { body: string; template: { name: string; language: string; components: Record<string, unknown>[] } } } | { send: "skip"; reason: AutomaticSkipReason }>;
};

/** Only types a browser shows without running anything are images, audio or video; the rest (SVG included) documents. */
const kindOf = (mimetype: string): OutboundMedia["kind"] => messageKindOf({ mime: mimetype });

export const createMessagesService = (deps: {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  messages: MessagesRepository;
  tickets: TicketsRepository;
  ticketsService: TicketsService;
  changes: TicketChanges;
  contacts: ContactsRepository;
  directory: InboxDirectory;
  events: InboxEvents;
  outbound: OutboundService;
  media: MediaStore;
  cursors: PageCursors;
  clock: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** per-provider rules (Cloud API: the 24-hour window, no editing, templates); absent: QR rules only */
  channelRules?: ChannelRules;
  /** runs a conversation page's point reads (the card's lookups, the quoted messages) as one batch read each (docs/adr/0059) */
  coalesceReads?: <T>(fn: () => Promise<T>) => Promise<T>;
}) => {
  const { messages, tickets, ticketsService, changes, contacts, directory, events, outbound, media, cursors, clock } = deps;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  const views = async (companyId: number, list: Awaited<ReturnType<MessagesRepository["findByIds"]>>): Promise<MessageView[]> => {
    const quoted = new Map((await messages.findByIds(companyId, list.flatMap((m) => (m.quotedMsgId ? [m.quotedMsgId] : [])))).map((m) => [m.id, m]));
    const contactIds = [...new Set(list.map((m) => m.contactId))];
    const byId = new Map((await contacts.findByIds(companyId, contactIds)).map((c) => [c.id, c]));
    return list.map((m) => toMessageView(m, m.quotedMsgId ? quoted.get(m.quotedMsgId) : null, byId.get(m.contactId)));
  };

  /**
   * A conversation page's views (docs/adr/0059): every message of a contact's conversation is that contact's (`known`:
   * the ticket's card or the contact read beside the page), and a quoted message on the page is taken from the page;
   * only quotes of older messages (and, never expected, another contact's message) are read, in one batch read.
   */
  const pageViews = async (companyId: number, list: Message[], known: { id: number; contact: Pick<Contact, "id" | "name" | "number"> | null }): Promise<MessageView[]> => {
    const onPage = new Map(list.map((m) => [m.id, m]));
    const quotedIds = list.flatMap((m) => (m.quotedMsgId && !onPage.has(m.quotedMsgId) ? [m.quotedMsgId] : []));
    const otherIds = [...new Set(list.filter((m) => m.contactId !== known.id).map((m) => m.contactId))];
    const [quoted, others] = await Promise.all([
      quotedIds.length ? messages.findByIds(companyId, quotedIds) : [],
      otherIds.length ? contacts.findByIds(companyId, otherIds) : [],
    ]);
    for (const m of quoted) onPage.set(m.id, m);
    const byId = new Map<number, Pick<Contact, "id" | "name" | "number"> | null>(others.map((c) => [c.id, c]));
    byId.set(known.id, known.contact);
    return list.map((m) => toMessageView(m, m.quotedMsgId ? onPage.get(m.quotedMsgId) : null, byId.get(m.contactId)));
  };

  /** The author's own message in a ticket the caller may see. */
  const ownMessage = async (auth: AuthContext, id: string) => {
    const m = await messages.findById(auth.companyId, id);
    if (!m) throw new AppError("ERR_NOT_FOUND");
    const t = await ticketsService.findVisible(auth, m.ticketId);
    if (!m.fromMe) throw new AppError("ERR_NO_PERMISSION");
    return { m, t };
  };

  /**
   * How an outbound message to a contact finds its ticket (forward, scheduled messages): the contact's pending/open
   * ticket on the connection (`whatsappId` null: the company's default), else a new open one owned by `owner` in
   * their first queue (no owner: pending, no queue).
   */
  /** The connection a message to a contact goes through: `whatsappId`, or the company's default (null). */
  const connectionFor = (dir: Directory, whatsappId: number | null): number => {
    const waId = whatsappId ?? [...dir.whatsapps.values()].find((w) => w.isDefault)?.id ?? null;
    if (waId === null) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
    if (!dir.whatsapps.has(waId)) throw new AppError("ERR_NO_WAPP_FOUND");
    return waId;
  };

  const ticketForContact = async (dir: Directory, contact: Contact, whatsappId: number | null, owner: { id: number; queueIds: number[] } | null): Promise<TicketRecord> => {
    const companyId = contact.companyId;
    const waId = connectionFor(dir, whatsappId);
    const openId = await tickets.findOpenId(companyId, contact.id, waId);
    let target = openId ? await tickets.findById(companyId, openId) : null;
    if (!target) {
      try {
        target = await changes.create(
          {
            companyId,
            contactId: contact.id,
            whatsappId: waId,
            queueId: owner?.queueIds[0] ?? null,
            userId: owner?.id ?? null,
            status: owner ? "open" : "pending",
            isGroup: contact.isGroup,
            ...contactCardFields(contact),
            chatJid: chatJidOf(contact),
          },
          { byUserId: owner?.id ?? null, now: clock() },
        );
      } catch (e) {
        if (!(e instanceof OpenTicketExists)) throw e;
        target = await tickets.findById(companyId, e.ticketId);
      }
    }
    if (!target) throw new AppError("ERR_CREATING_TICKET");
    return target;
  };

  /** Text alone, or each file (the text as the first one's caption), into ticket `t`; ids from `idOf(index)`. */
  const deliver = async (
    t: TicketRecord,
    input: { body: string; files: UploadedFile[]; quotedId: string | null; userId: number | null; attendant?: boolean; bulk?: boolean },
    dir: Directory,
    idOf: (index: number) => string,
    /** `t` as stored now (just read or written): the sends do not read it again (each send's ticket is the next one's) */
    current = false,
  ) => {
    // every file checked by its content before anything is stored; the sniffed type is what is stored and sent
    const files = input.files.map((f) => checkUpload(f, "message", "medias"));
    await deps.channelRules?.assertOutbound(t.companyId, t.whatsappId, t.chatJid, files.length ? "media" : "text", { bulk: input.bulk });
    const sent = [];
    let cur = t;
    if (!files.length) sent.push((await outbound.send(t, { body: input.body, quotedId: input.quotedId, userId: input.userId, id: idOf(0), attendant: input.attendant, bulk: input.bulk }, { dir, current })).message);
    for (const [i, file] of files.entries()) {
      const id = idOf(i);
      const mediaKey = mediaKeyFor(t.companyId, id, file.name);
      if (!(await messages.exists(t.companyId, id))) await media.put(mediaKey, file.bytes, file.type);
      const kind = kindOf(file.type);
      const out = await outbound.send(
        cur,
        {
          body: i === 0 ? input.body : "",
          media: { key: mediaKey, mimetype: file.type, filename: file.name, size: file.bytes.length, kind, ...(kind === "audio" && isVoiceNote(file.name, file.type) ? { ptt: true } : {}) },
          quotedId: i === 0 ? input.quotedId : null,
          userId: input.userId,
          id,
          attendant: input.attendant,
          bulk: input.bulk,
          // the files reach the customer in the order they were given, on every channel (docs/adr/0106)
          // (not after one whose command could not be queued: nothing would ever let this one go)
          ...(i > 0 && !sent[i - 1]!.error ? { after: sent[i - 1]!.id } : {}),
          ...(i < files.length - 1 ? { followed: true } : {}),
        },
        { dir, current: current || i > 0 },
      );
      if (!out.duplicate) cur = out.ticket;
      sent.push(out.message);
    }
    return sent;
  };

  const assertCanSend = (t: TicketRecord) => {
    if (t.status === "closed") throw new AppError("ERR_TICKET_CLOSED");
    if (t.whatsappId === null) throw new AppError("ERR_NO_WAPP_FOUND");
  };

  return {
    /** Runs `fn` (the route's auth and handler) with its point reads side by side joined: the caller's user item and `readAhead`'s ticket in one batch read. */
    readTogether<T>(fn: () => Promise<T>): Promise<T> {
      return deps.coalesceReads ? deps.coalesceReads(fn) : fn();
    },
    /**
     * Starts reading a ticket for `list` before the caller is known: the route starts it beside the caller's own read
     * (docs/adr/0059). Nothing read here is shown before `list` has checked the caller may see the ticket.
     */
    readAhead(companyId: number, ticketId: number): TicketReadAhead {
      const ticket = tickets.findById(companyId, ticketId);
      ticket.catch(() => undefined); // awaited by `list`; a request refused by auth never gets there
      return { companyId, ticketId, ticket };
    },

    /**
     * GET /messages/{ticketId}: the contact's conversation (every cycle), newest page first; opening page 1 clears
     * unread (docs/adr/0059). After the ticket (who may see it: queues, allTicket, admin) everything else is side by
     * side: the page (pages 1 and 2 in one read from the newest message, without a remembered cursor), the card's
     * queue, user, connection and tags (point reads reused for at most a second, one batch read with the contact when
     * the ticket carries no card), and on page 1 of an unread ticket the read mark and its receipt (then the socket list its
     * frame goes to). Then only the quoted messages the page does not hold. `ahead`: the ticket's read already started.
     */
    async list(auth: AuthContext, ticketId: number, pageNumber: number, ahead?: TicketReadAhead): Promise<MessageListResponse> {
      const companyId = auth.companyId;
      const started = ahead && ahead.companyId === companyId && ahead.ticketId === ticketId ? ahead.ticket : undefined;
      const t = await ticketsService.findVisible(auth, ticketId, started);
      // silent monitoring (issue 34, docs/adr/0101): a supervisor or admin watching someone else's conversation leaves
      // its read mark, unread count and status as they are; the audit trail records the view (page 1: the opening)
      const watching = watchesSilently({ userId: auth.user.id, profile: auth.user.profile }, t);
      const clearing = pageNumber === 1 && t.unreadMessages > 0 && !watching;
      const viewed = watching && pageNumber === 1 ? deps.audit.record(auditEntry(auth, "view", { kind: "ticket", id: t.id }, {})) : null;
      viewed?.catch(() => undefined); // awaited below
      const together = deps.coalesceReads ?? (<T>(fn: () => Promise<T>) => fn());
      const need = (x: TicketRecord) => ({ queueIds: [x.queueId], userIds: [x.userId], whatsappIds: [x.whatsappId], tagIds: x.tagIds, settings: false });
      const markRead = async () => {
        // its frame's socket list is read after the mark is stored, not beside it (docs/adr/0058: a socket opening
        // meanwhile is then in the list, or re-reads the ticket after the mark)
        const after = await ticketsService.markRead(auth, t, { current: true });
        if (after.lastInboundId && after.whatsappId !== null) {
          await outbound
            .command({ type: "read", commandId: `read-${after.lastInboundId}`, companyId: after.companyId, whatsappId: after.whatsappId, chatJid: after.chatJid, messageIds: [after.lastInboundId] })
            .catch(() => undefined);
        }
        return after;
      };
      const answer = await together(async () => {
        // the card's contact: the ticket's copy (docs/adr/0057), or the contact for a ticket written before the copies
        const contactRead = t.contactCard === undefined ? contacts.findById(companyId, t.contactId) : null;
        contactRead?.catch(() => undefined); // awaited below; a failure must not go unhandled when the page fails first
        const contact: Promise<ContactCard | Contact | null> = contactRead ?? Promise.resolve(t.contactCard ?? null);
        const [page, dir, shown] = await Promise.all([
          pageByNumberWith({
            cursors,
            companyId,
            viewerId: auth.user.id,
            queryHash: hashQuery(["messages", t.contactId]),
            page: pageNumber,
            now: clock(),
            fetch: (cursor, pages = 1) => messages.pageByContact(companyId, t.contactId, MESSAGES_PAGE_SIZE * pages, cursor),
            firstPages: FIRST_PAGES_IN_ONE_READ,
            pageSize: MESSAGES_PAGE_SIZE,
            present: async (items) => pageViews(companyId, [...items].reverse(), { id: t.contactId, contact: await contact }),
          }),
          directory.loadFor(companyId, need(t), undefined, { reuse: true }),
          clearing ? markRead() : t,
        ]);
        // a read mark that met a concurrent write re-read the ticket: what it names now and was not read above
        const moved = shown.queueId !== t.queueId || shown.userId !== t.userId || shown.whatsappId !== t.whatsappId || shown.tagIds.some((id) => !t.tagIds.includes(id));
        const names = moved ? await directory.loadFor(companyId, need(shown), dir, { reuse: true }) : dir;
        return { messages: page.items, ticket: toTicketView(shown, names, await contact), count: page.items.length, hasMore: page.hasMore };
      });
      await viewed;
      return answer;
    },

    /** POST /messages/{ticketId}: text (JSON) or media (multipart `medias`). Idempotent per key. */
    async send(auth: AuthContext, ticketId: number, input: SendMessageInput, files: UploadedFile[], idempotencyKey?: string): Promise<MessageView[]> {
      const t = await ticketsService.findVisible(auth, ticketId);
      assertCanSend(t);
      const key = idempotencyKey ?? input.idempotencyKey;
      const dir = await directory.load(auth.companyId);
      const quotedId = input.quotedMsg?.id ?? null;
      if (input.template) {
        // a message template (Cloud API): approved, every variable filled; allowed whatever the window
        if (!deps.channelRules || files.length) throw new AppError("ERR_CHANNEL_UNSUPPORTED");
        await deps.channelRules.assertOutbound(t.companyId, t.whatsappId, t.chatJid, "template");
        const prepared = await deps.channelRules.prepareTemplate(t.companyId, t.whatsappId!, input.template);
        const id = key ? idempotentMessageId(auth.companyId, auth.user.id, key) : newMessageId();
        const out = await outbound.send(t, { body: prepared.body, template: prepared.template, quotedId, userId: auth.user.id, id, attendant: true }, { dir });
        return views(auth.companyId, [out.message]);
      }
      if (!files.length && !input.body.trim()) throw new AppError("ERR_VALIDATION");
      const sent = await deliver(
        t,
        { body: input.body, files, quotedId, userId: auth.user.id, attendant: true },
        dir,
        (i) => (key ? idempotentMessageId(auth.companyId, auth.user.id, files.length ? `${key}#${i}` : key) : newMessageId()),
        true,
      );
      return views(auth.companyId, sent);
    },

    async edit(auth: AuthContext, id: string, body: string): Promise<MessageView> {
      const { m, t } = await ownMessage(auth, id);
      // a whisper never reaches a channel (docs/adr/0102): nothing to edit there
      if (m.isDeleted || m.internal) throw new AppError("ERR_NO_PERMISSION");
      await deps.channelRules?.assertOutbound(t.companyId, t.whatsappId, t.chatJid, "edit");
      await outbound.command({ type: "edit", commandId: `edit-${id}-${randomBytes(4).toString("hex")}`, companyId: t.companyId, whatsappId: t.whatsappId ?? 0, chatJid: t.chatJid, targetId: id, body });
      const updated = (await messages.update(auth.companyId, id, { body, isEdited: true, updatedAt: clock().toISOString() }))!;
      await events.message("update", updated, t);
      return (await views(auth.companyId, [updated]))[0]!;
    },

    async remove(auth: AuthContext, id: string): Promise<MessageView> {
      const { m, t } = await ownMessage(auth, id);
      if (m.internal) throw new AppError("ERR_NO_PERMISSION");
      if (!m.isDeleted) await deps.channelRules?.assertOutbound(t.companyId, t.whatsappId, t.chatJid, "delete");
      if (!m.isDeleted) {
        await outbound.command({ type: "delete", commandId: `delete-${id}`, companyId: t.companyId, whatsappId: t.whatsappId ?? 0, chatJid: t.chatJid, targetId: id });
      }
      const updated = (await messages.update(auth.companyId, id, { isDeleted: true, updatedAt: clock().toISOString() }))!;
      await events.message("update", updated, t);
      if (!m.isDeleted) await deps.audit.record(auditEntry(auth, "delete", { kind: "message", id }, { ticketId: { from: t.id, to: t.id }, isDeleted: { from: false, to: true } }));
      return (await views(auth.companyId, [updated]))[0]!;
    },

    async react(auth: AuthContext, id: string, emoji: string): Promise<MessageView> {
      const m = await messages.findById(auth.companyId, id);
      if (!m) throw new AppError("ERR_NOT_FOUND");
      const t = await ticketsService.findVisible(auth, m.ticketId);
      if (m.internal) throw new AppError("ERR_NO_PERMISSION");
      await deps.channelRules?.assertOutbound(t.companyId, t.whatsappId, t.chatJid, "react");
      await outbound.command({ type: "react", commandId: `react-${id}-${randomBytes(4).toString("hex")}`, companyId: t.companyId, whatsappId: t.whatsappId ?? 0, chatJid: t.chatJid, targetId: id, emoji });
      const reactions = [...m.reactions.filter((r) => !r.fromMe), ...(emoji ? [{ emoji, fromMe: true, senderJid: "me" }] : [])];
      const updated = (await messages.update(auth.companyId, id, { reactions, updatedAt: clock().toISOString() }))!;
      await events.message("update", updated, t);
      return (await views(auth.companyId, [updated]))[0]!;
    },

    /**
     * A message to a contact as `userId` (null: the system), through `whatsappId` (null: the company's default
     * connection), into the contact's open ticket or a new one: text, files with the text as the first caption
     * (external API), or a Cloud API template. `bulk`: a campaign message (Cloud API: templates only, paced per
     * recipient). Fixed ids (`id`, or `idOf(index)` with files) make a repeat store nothing and send nothing
     * (scheduled messages, API idempotency keys). Everything the provider would refuse (the window closed, a
     * template not approved, free text in a campaign) and every file are checked before a ticket is found or
     * created, so a refusal throws its catalogue code and leaves no empty ticket behind. Answers the first message.
     */
    async sendToContact(input: {
      companyId: number;
      contactId: number;
      whatsappId: number | null;
      body: string;
      userId: number | null;
      id?: string;
      files?: UploadedFile[];
      idOf?: (index: number) => string;
      template?: TemplateSend;
      bulk?: boolean;
    }) {
      const contact = await contacts.findById(input.companyId, input.contactId);
      if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
      const dir = await directory.load(input.companyId);
      const owner = input.userId !== null ? (dir.users.get(input.userId) ?? null) : null;
      const waId = connectionFor(dir, input.whatsappId);
      const files = input.files ?? [];
      const chatJid = chatJidOf(contact);
      let prepared: Awaited<ReturnType<ChannelRules["prepareTemplate"]>> | null = null;
      if (input.template) {
        if (!deps.channelRules || files.length) throw new AppError("ERR_CHANNEL_UNSUPPORTED");
        await deps.channelRules.assertOutbound(input.companyId, waId, chatJid, "template");
        prepared = await deps.channelRules.prepareTemplate(input.companyId, waId, input.template);
      } else {
        files.forEach((f) => checkUpload(f, "message", "medias"));
        await deps.channelRules?.assertOutbound(input.companyId, waId, chatJid, files.length ? "media" : "text", { bulk: input.bulk });
      }
      const target = await ticketForContact(dir, contact, waId, owner);
      const idOf = input.idOf ?? ((i: number) => (i === 0 && input.id ? input.id : newMessageId()));
      if (prepared) {
        const out = await outbound.send(target, { body: prepared.body, template: prepared.template, userId: input.userId, id: idOf(0), bulk: input.bulk }, { dir });
        return { message: out.message, ticket: out.ticket };
      }
      const sent = await deliver(target, { body: input.body, files, quotedId: null, userId: input.userId, bulk: input.bulk }, dir, idOf, true);
      return { message: sent[0]!, ticket: target };
    },

    /** POST /message/forward: into the contact's open ticket (or a new one owned by the caller), optionally signed. */
    async forward(auth: AuthContext, input: { messageId: string; contactId: number; signMessage: boolean }): Promise<MessageView> {
      const source = await messages.findById(auth.companyId, input.messageId);
      // a whisper is never forwarded to a customer (docs/adr/0102)
      if (!source || source.isDeleted || source.internal) throw new AppError("ERR_NOT_FOUND");
      await ticketsService.findVisible(auth, source.ticketId);
      const contact = await contacts.findById(auth.companyId, input.contactId);
      if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
      const dir = await directory.load(auth.companyId);
      // the provider's rules before a ticket is found or created (Cloud API: the window; no empty ticket left behind)
      await deps.channelRules?.assertOutbound(auth.companyId, connectionFor(dir, auth.user.whatsappId), chatJidOf(contact), source.mediaKey ? "media" : "text");
      const target = await ticketForContact(dir, contact, auth.user.whatsappId, auth.user);
      const body = input.signMessage && source.body ? `*${auth.user.name}:*\n${source.body}` : source.body;
      await sleep(FORWARD_PAUSE_MS);
      const out = await outbound.send(
        target,
        {
          body,
          media: source.mediaKey ? { key: source.mediaKey, mimetype: source.mediaMimetype ?? "application/octet-stream", filename: source.mediaName ?? undefined, kind: kindOf(source.mediaMimetype ?? "") } : undefined,
          isForwarded: true,
          userId: auth.user.id,
          attendant: true,
        },
        { dir },
      );
      return (await views(auth.companyId, [out.message]))[0]!;
    },
  };
};
export type MessagesService = ReturnType<typeof createMessagesService>;
