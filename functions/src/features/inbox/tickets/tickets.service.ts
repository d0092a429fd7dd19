import type { TicketCycle, TicketView } from "@atende/shared/contracts/http/tickets";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { TicketCreateInput, TicketListQuery, TicketUpdateInput } from "@atende/shared/domain/tickets/ticket";
import { customerNotices, isTicketUpdateAction, mayDo, planTicketChange } from "@atende/shared/domain/tickets/ticket-transitions";
import { seesEveryTicket } from "@atende/shared/domain/permissions/permissions";
import type { PageCursors, PageTokens } from "../../../platform/db/page-cursors";
import { AppError } from "../../../platform/errors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { ContactsRepository } from "../contacts/contacts.repository";
import { chatJidOf } from "../contacts/contact-identity";
import { toTicketView, type Directory, type InboxDirectory } from "./inbox-directory";
import type { InboxEvents } from "./inbox-events";
import { visibleTo } from "./ticket-list";
import { ExtraConditionFailed, OpenTicketExists, type ChangeAction, type TicketChanges } from "./ticket-changes";
import type { TxItem } from "../../../platform/db/transact";
import { contactCardFields, type TicketRecord, type TicketsRepository } from "./tickets.repository";
import { createTicketViews, needOf, viewerOf, type HistorySearch } from "./ticket-views";
import { MAX_TAGS_PER_TICKET } from "@atende/shared/domain/tags/tag";
import type { AuditRecorder } from "../../audit/audit.port";
import { auditChanges, auditEntry } from "../../audit/audit-diff";

/** What the server does to the customer on ticket changes (greeting on accept, transfer notice, completion/rating). */
export type TicketNotices = {
  onChanged(action: ChangeAction, before: TicketRecord, after: TicketRecord, by: AuthContext | null, dir: Directory): Promise<void>;
};

/** Keeps the tags' ticket links and counts in the ticket's own transaction (inbox/tags). */
export type TicketTagLinks = {
  ticketTagItems(companyId: number, ticketId: number, before: readonly number[], after: readonly number[], live: ReadonlySet<number>): TxItem[];
};

export { viewerOf, type HistoryHit, type HistorySearch } from "./ticket-views";

/** Whether the action may send the customer something (then the notices need the company and its settings). */
const hasCustomerNotice = (action: ChangeAction) =>
  isTicketUpdateAction(action) && customerNotices(action, { isGroup: false, hasOwner: true, setting: () => "enabled" }).length > 0;

export const createTicketsService = (deps: {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  tickets: TicketsRepository;
  contacts: ContactsRepository;
  changes: TicketChanges;
  directory: InboxDirectory;
  events: InboxEvents;
  cursors: PageCursors;
  /** the lists' page tokens (docs/adr/0040): a later page opened with one needs no cursor read */
  pageTokens?: PageTokens;
  /** runs the cards' point reads (contacts, queues, users, connections, tags) as one batch read (docs/adr/0040) */
  coalesceReads?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** the customer notices of a change (automation), given at construction: automation is built first */
  notices: TicketNotices;
  tagLinks: TicketTagLinks;
  clock: () => Date;
  /**
   * tickets whose whole history, contact name, number or protocol matches a text, each with its contact's id (the
   * search index, docs/adr/0035, 0055); absent: names and numbers through the contacts' indexes and last messages
   */
  historySearch?: HistorySearch;
}) => {
  const { tickets, contacts, changes, directory, events, notices, tagLinks, clock } = deps;
  // the lists, their search and the cards (ticket-views.ts)
  const { views, list, kanban } = createTicketViews(deps);

  /** `read`: the ticket's read of this company already under way (GET /messages starts it beside the caller's, docs/adr/0059). */
  const findVisible = async (auth: AuthContext, id: number, read?: Promise<TicketRecord | null>): Promise<TicketRecord> => {
    const t = await (read ?? tickets.findById(auth.companyId, id));
    if (!t) throw new AppError("ERR_NO_TICKET_FOUND");
    if (!visibleTo(viewerOf(auth))(t)) throw new AppError("ERR_NO_PERMISSION");
    return t;
  };

  const otherOpen = async (companyId: number, ticketId: number) => {
    const t = await tickets.findById(companyId, ticketId);
    const [view] = t ? await views(companyId, [t]) : [];
    return new AppError("ERR_OTHER_OPEN_TICKET", view ?? { id: ticketId });
  };

  const assertRefs = (dir: Directory, input: { queueId?: number | null; userId?: number | null; whatsappId?: number | null }) => {
    if (input.queueId != null && !dir.queues.has(input.queueId)) throw new AppError("ERR_NOT_FOUND");
    if (input.userId != null && !dir.users.has(input.userId)) throw new AppError("ERR_NO_USER_FOUND");
    if (input.whatsappId != null && !dir.whatsapps.has(input.whatsappId)) throw new AppError("ERR_NO_WAPP_FOUND");
  };

  const service = {
    viewerOf,
    findVisible,
    views,
    list,
    kanban,

    async get(auth: AuthContext, id: number): Promise<TicketView> {
      const t = await findVisible(auth, id);
      return (await views(auth.companyId, [t]))[0]!;
    },
    async getByUuid(auth: AuthContext, uuid: string): Promise<TicketView> {
      const id = await tickets.findIdByUuid(auth.companyId, uuid);
      if (!id) throw new AppError("ERR_NO_TICKET_FOUND");
      return this.get(auth, id);
    },

    /** POST /tickets from the new-ticket dialog (status open, owner me). */
    async create(auth: AuthContext, input: TicketCreateInput): Promise<TicketView> {
      const dir = await directory.load(auth.companyId, { fresh: true });
      const contact = await contacts.findById(auth.companyId, input.contactId);
      if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
      if (!seesEveryTicket(auth.user.profile) && input.queueId == null) throw new AppError("ERR_VALIDATION");
      if (!seesEveryTicket(auth.user.profile) && input.queueId != null && !auth.user.queueIds.includes(input.queueId)) throw new AppError("ERR_NO_PERMISSION");
      assertRefs(dir, input);
      const whatsappId =
        input.whatsappId ?? auth.user.whatsappId ?? [...dir.whatsapps.values()].find((w) => w.isDefault)?.id ?? [...dir.whatsapps.keys()][0] ?? null;
      if (whatsappId === null) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
      const status = input.status ?? "open";
      try {
        const t = await changes.create(
          {
            companyId: auth.companyId,
            contactId: contact.id,
            whatsappId,
            queueId: input.queueId ?? null,
            userId: status === "pending" ? (input.userId ?? null) : (input.userId ?? auth.user.id),
            status,
            isGroup: contact.isGroup,
            ...contactCardFields(contact),
            chatJid: chatJidOf(contact),
          },
          { byUserId: auth.user.id, now: clock() },
        );
        await events.ticketUpdated(t, null, dir, contact);
        await events.ticketOpened(t, contact);
        return toTicketView(t, dir, contact);
      } catch (e) {
        if (e instanceof OpenTicketExists) throw await otherOpen(auth.companyId, e.ticketId);
        throw e;
      }
    },

    /**
     * PUT /tickets/{id}: accept, resolve, return, reopen, transfer (spec 1 section 4), as the shared transition table
     * plans them. One read of the ticket (reused by the write unless someone else wrote in between) and point reads
     * of the queues, users, connections and tags involved instead of the company's lists.
     */
    async update(auth: AuthContext, id: number, input: TicketUpdateInput): Promise<TicketView> {
      const read = await findVisible(auth, id);
      const me = auth.user.id;
      const planned = planTicketChange(read, input, me);
      let dir = await directory.loadFor(auth.companyId, {
        ...needOf([read, ...(planned ? [planned.next] : [])], input),
        settings: !!planned && hasCustomerNotice(planned.action),
      });
      assertRefs(dir, input);
      let action: ChangeAction = "update";
      let last = read;
      let out;
      try {
        out = await changes.mutate(
          auth.companyId,
          id,
          (t) => {
            last = t;
            const plan = t === read ? planned : planTicketChange(t, input, me);
            action = plan?.action ?? "update";
            const patch: Partial<TicketRecord> = {};
            if (plan) {
              Object.assign(patch, plan.next);
              if (plan.effects.includes("clearUnread")) patch.unreadMessages = 0;
              if (plan.effects.includes("endBot")) patch.bot = { ...t.bot, stage: "done" };
              if (plan.effects.includes("clearRating")) patch.cycle = { ...t.cycle, ratedAt: null, rating: null };
            }
            if (input.useIntegration !== undefined) patch.useIntegration = input.useIntegration;
            if (input.promptId !== undefined) patch.promptId = input.promptId;
            if (input.integrationId !== undefined) patch.integrationId = input.integrationId;
            const changed = (Object.keys(patch) as (keyof TicketRecord)[]).some((k) => JSON.stringify(patch[k]) !== JSON.stringify(t[k]));
            return changed ? { patch, action } : null;
          },
          { byUserId: me, now: clock(), read },
        );
      } catch (e) {
        if (e instanceof OpenTicketExists) throw await otherOpen(auth.companyId, e.ticketId);
        throw e;
      }
      const shown = out?.after ?? last;
      // a concurrent writer may have moved the ticket elsewhere: load what its view and notices name that is missing
      dir = await directory.loadFor(auth.companyId, { ...needOf([shown], {}), settings: !!out && hasCustomerNotice(action) }, dir);
      if (!out) return (await views(auth.companyId, [shown], dir))[0]!; // nothing to change
      const { before, after } = out;
      const contact = await contacts.findById(auth.companyId, after.contactId);
      await events.ticketUpdated(after, before, dir, contact);
      await notices.onChanged(action, before, after, auth, dir);
      if ((action as ChangeAction) === "transfer") {
        const where = (x: TicketRecord) => ({ status: x.status, queueId: x.queueId, userId: x.userId, whatsappId: x.whatsappId });
        await deps.audit.record(auditEntry(auth, "transfer", { kind: "ticket", id }, auditChanges(where(before), where(after))));
      }
      return toTicketView(after, dir, contact);
    },

    async remove(auth: AuthContext, id: number): Promise<void> {
      if (!mayDo("delete", auth.user.profile)) throw new AppError("ERR_NO_PERMISSION");
      const t = await tickets.findById(auth.companyId, id);
      if (!t) throw new AppError("ERR_NO_TICKET_FOUND");
      // only the ticket's own tags matter to its links: which of them still exist
      const liveTags = t.tagIds.length
        ? new Set((await directory.loadFor(auth.companyId, { queueIds: [], userIds: [], whatsappIds: [], tagIds: t.tagIds, settings: false })).tags.keys())
        : new Set<number>();
      await tickets.transact([
        ...tickets.deleteItems(t),
        ...(t.status !== "closed" ? [tickets.unlockOpenItem(t)] : []),
        ...tickets.countItems(t, null),
        ...tickets.tagCopyItems(t, null),
        ...changes.boardItems(t, null),
        ...tagLinks.ticketTagItems(auth.companyId, t.id, t.tagIds, [], liveTags),
      ]);
      await tickets.transact([
        tickets.changeItem(t.companyId, { ticketId: t.id, at: clock().toISOString(), byUserId: auth.user.id, action: "delete", from: { status: t.status, userId: t.userId, queueId: t.queueId, whatsappId: t.whatsappId }, to: null }, `${Date.now()}`),
      ]);
      await events.ticketDeleted(t);
      await deps.audit.record(
        auditEntry(auth, "delete", { kind: "ticket", id: t.id }, auditChanges({ status: t.status, queueId: t.queueId, userId: t.userId, whatsappId: t.whatsappId, contactId: t.contactId }, null)),
      );
    },

    /** POST /tickets/closeAll: admins close every ticket of a tab (optionally only some queues). */
    async closeAll(auth: AuthContext, input: { status: "open" | "pending"; selectedQueueIds: number[] }): Promise<{ closed: number }> {
      if (auth.user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
      const dir = await directory.load(auth.companyId, { fresh: true });
      const q: TicketListQuery = { searchParam: "", pageNumber: 1, tags: [], users: [], queueIds: input.selectedQueueIds, showAll: !input.selectedQueueIds.length, withUnreadMessages: false, status: input.status };
      const scope = { companyId: auth.companyId, viewer: viewerOf(auth), query: q, companyQueueIds: [...dir.queues.keys()] };
      let closed = 0;
      let cursor: string | undefined;
      do {
        const page = await tickets.pageList(scope, 50, cursor);
        cursor = page.next;
        const batch = page.items.filter(
          (t) => t.status === input.status && (!input.selectedQueueIds.length || (t.queueId !== null && input.selectedQueueIds.includes(t.queueId))),
        );
        for (const t of batch) {
          const out = await changes.mutate(auth.companyId, t.id, (cur) => (cur.status === input.status ? { patch: { status: "closed", unreadMessages: 0, bot: { ...cur.bot, stage: "done" } }, action: "resolve" } : null), {
            byUserId: auth.user.id,
            now: clock(),
          });
          if (!out) continue;
          closed++;
          await events.ticketUpdated(out.after, out.before, dir);
          await notices.onChanged("resolve", out.before, out.after, auth, dir);
        }
      } while (cursor);
      return { closed };
    },

    /** Opening a conversation clears its unread count (and tells WhatsApp it was read). */
    /** `opts.current`: `t` was just read (strongly consistent), so the write's first attempt does not read it again (a conflict re-reads). */
    async markRead(auth: AuthContext, t: TicketRecord, opts: { current?: boolean } = {}): Promise<TicketRecord> {
      if (t.unreadMessages === 0) return t;
      const out = await changes.mutate(auth.companyId, t.id, (cur) => (cur.unreadMessages ? { patch: { unreadMessages: 0 }, touch: false } : null), {
        byUserId: auth.user.id,
        now: clock(),
        ...(opts.current ? { read: t } : {}),
      });
      if (!out) return t;
      await events.unreadCleared(out.after);
      return out.after;
    },

    async setTags(auth: AuthContext, ticketId: number, tagIds: number[]): Promise<TicketView> {
      await findVisible(auth, ticketId);
      const dir = await directory.load(auth.companyId, { fresh: true });
      if (tagIds.some((id) => !dir.tags.has(id))) throw new AppError("ERR_NOT_FOUND");
      const next = [...new Set(tagIds)];
      if (next.length > MAX_TAGS_PER_TICKET) throw new AppError("ERR_TOO_MANY_TAGS", { max: MAX_TAGS_PER_TICKET });
      const live = new Set(dir.tags.keys());
      let out;
      try {
        out = await changes.mutate(
          auth.companyId,
          ticketId,
          (cur) => ({ patch: { tagIds: next }, touch: false, extra: tagLinks.ticketTagItems(auth.companyId, ticketId, cur.tagIds, next, live) }),
          { byUserId: auth.user.id, now: clock() },
        );
      } catch (e) {
        if (e instanceof ExtraConditionFailed) throw new AppError("ERR_NOT_FOUND"); // a tag was deleted meanwhile
        throw e;
      }
      await events.ticketUpdated(out!.after, null, dir);
      return toTicketView(out!.after, dir, await contacts.findById(auth.companyId, out!.after.contactId));
    },
    async addTag(auth: AuthContext, ticketId: number, tagId: number): Promise<TicketView> {
      const t = await findVisible(auth, ticketId);
      return this.setTags(auth, ticketId, [...t.tagIds, tagId]);
    },

    /** A deleted tag leaves each of its tickets (false when the ticket is gone or no longer carries it). */
    async removeTagFromTicket(companyId: number, ticketId: number, tagId: number): Promise<boolean> {
      if (!(await tickets.findById(companyId, ticketId))) return false;
      const dir = await directory.load(companyId);
      // the tag is being deleted: its counter is gone with it (only its link is dropped)
      const live = new Set([...dir.tags.keys()].filter((id) => id !== tagId));
      const out = await changes.mutate(
        companyId,
        ticketId,
        (cur) => {
          if (!cur.tagIds.includes(tagId)) return null;
          const next = cur.tagIds.filter((id) => id !== tagId);
          return { patch: { tagIds: next }, touch: false, extra: tagLinks.ticketTagItems(companyId, ticketId, cur.tagIds, next, live) };
        },
        { byUserId: null, now: clock() },
      );
      if (out) await events.ticketUpdated(out.after, null, dir);
      return out !== null;
    },

    /**
     * A change nobody's session made: a bot's action (issue 11). Transfer to a queue (pending there, no owner) or to a
     * user (open with them), close, or add a tag (by id or name). Recorded as the system's (byUserId null), published,
     * and the customer notices of a transfer or close go out as for an attendant's change. Refusals: the queue, user
     * or tag is not the company's (ERR_NO_QUEUE_FOUND, ERR_NO_USER_FOUND, ERR_NOT_FOUND).
     */
    async changeBySystem(
      companyId: number,
      ticketId: number,
      change: { type: "transferQueue"; queueId: number } | { type: "transferUser"; userId: number } | { type: "close" } | { type: "addTag"; tag: number | string },
    ): Promise<void> {
      const dir = await directory.load(companyId);
      const now = clock();
      if (change.type === "addTag") {
        const tag = typeof change.tag === "number" ? dir.tags.get(change.tag) : [...dir.tags.values()].find((x) => x.name.toLowerCase() === String(change.tag).trim().toLowerCase());
        if (!tag) throw new AppError("ERR_NOT_FOUND");
        const live = new Set(dir.tags.keys());
        const out = await changes.mutate(
          companyId,
          ticketId,
          (cur) => {
            if (cur.tagIds.includes(tag.id)) return null;
            // a bot's tag beyond the limit is not added (the flow goes on; nothing to refuse to)
            if (cur.tagIds.length >= MAX_TAGS_PER_TICKET) return null;
            const next = [...cur.tagIds, tag.id];
            return { patch: { tagIds: next }, touch: false, extra: tagLinks.ticketTagItems(companyId, ticketId, cur.tagIds, next, live) };
          },
          { byUserId: null, now },
        );
        if (out) await events.ticketUpdated(out.after, null, dir);
        return;
      }
      if (change.type === "transferQueue" && !dir.queues.has(change.queueId)) throw new AppError("ERR_NO_QUEUE_FOUND");
      if (change.type === "transferUser" && !dir.users.has(change.userId)) throw new AppError("ERR_NO_USER_FOUND");
      const action: ChangeAction = change.type === "close" ? "resolve" : "transfer";
      const out = await changes.mutate(
        companyId,
        ticketId,
        (t) => {
          if (t.status === "closed") return null;
          const patch: Partial<TicketRecord> =
            change.type === "transferQueue"
              ? { queueId: change.queueId, userId: null, status: "pending" }
              : change.type === "transferUser"
                ? { userId: change.userId, status: "open", unreadMessages: 0, bot: { ...t.bot, stage: "done" } }
                : { status: "closed", unreadMessages: 0, bot: { ...t.bot, stage: "done" } };
          return { patch, action };
        },
        { byUserId: null, now },
      );
      if (!out) return;
      const contact = await contacts.findById(companyId, out.after.contactId);
      await events.ticketUpdated(out.after, out.before, dir, contact);
      await notices.onChanged(action, out.before, out.after, null, dir);
    },

    /** Dashboard source: attention cycles queued in [fromIso, toIso) (index by company + month + time). */
    listCyclesBetween(companyId: number, fromIso: string, toIso: string): Promise<TicketCycle[]> {
      return tickets.listCyclesBetween(companyId, fromIso, toIso);
    },
    listChanges(companyId: number, ticketId: number) {
      return tickets.listChanges(companyId, ticketId);
    },
    contactOf(companyId: number, t: TicketRecord): Promise<Contact | null> {
      return contacts.findById(companyId, t.contactId);
    },
  };
  return service;
};
export type TicketsService = ReturnType<typeof createTicketsService>;
