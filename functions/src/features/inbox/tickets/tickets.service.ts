import type { TicketCycle, TicketListResponse, TicketView } from "@atende/shared/contracts/http/tickets";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import { searchedDigits } from "@atende/shared/domain/format/phone";
import { shortForIndex } from "@atende/shared/domain/search/text-search";
import type { TicketCreateInput, TicketListQuery, TicketUpdateInput } from "@atende/shared/domain/tickets/ticket";
import { customerNotices, isTicketUpdateAction, mayDo, planTicketChange } from "@atende/shared/domain/tickets/ticket-transitions";
import type { TicketViewer } from "@atende/shared/domain/tickets/visibility";
import { hashQuery, pageByNumberWith, type PageCursors, type PageTokens } from "../../../platform/db/page-cursors";
import { AppError } from "../../../platform/errors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { ContactsRepository } from "../contacts/contacts.repository";
import { chatJidOf, normalizeName } from "../contacts/contact-identity";
import { toTicketView, type Directory, type InboxDirectory } from "./inbox-directory";
import type { InboxEvents } from "./inbox-events";
import { visibleTo } from "./ticket-list";
import { ExtraConditionFailed, OpenTicketExists, type ChangeAction, type TicketChanges } from "./ticket-changes";
import type { TxItem } from "../../../platform/db/transact";
import { contactCardFields, type TicketCard, type TicketRecord, type TicketsRepository } from "./tickets.repository";
import { PAGE_SIZE } from "@atende/shared/constants/business";
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

/** A ticket the search index found for a text, with its contact (the card's contact is read with the ticket). */
export type HistoryHit = { ticketId: number; contactId: number };
/** null: the index failed (the list then reads names and numbers from the contacts' own indexes). */
export type HistorySearch = (companyId: number, text: string, limit: number) => Promise<HistoryHit[] | null>;

const SEARCH_LIMIT = 60;
/** Pages of a list without an item filter served by one read from the start (no cursor read or write; docs/adr/0046). */
const FIRST_PAGES_IN_ONE_READ = 2;

type Refs = { queueId?: number | null; userId?: number | null; whatsappId?: number | null };
/** The queues, users, connections and tags some tickets (and a request's references) name. */
const needOf = (list: (Refs & { tagIds?: number[] })[], input: Refs) => ({
  queueIds: [...list.map((t) => t.queueId), input.queueId],
  userIds: [...list.map((t) => t.userId), input.userId],
  whatsappIds: [...list.map((t) => t.whatsappId), input.whatsappId],
  tagIds: list.flatMap((t) => t.tagIds ?? []),
});
/** Whether the action may send the customer something (then the notices need the company and its settings). */
const hasCustomerNotice = (action: ChangeAction) =>
  isTicketUpdateAction(action) && customerNotices(action, { isGroup: false, hasOwner: true, setting: () => "enabled" }).length > 0;

export const viewerOf = (auth: AuthContext): TicketViewer => ({
  userId: auth.user.id,
  profile: auth.user.profile,
  queueIds: auth.user.queueIds,
  allTicket: auth.user.allTicket,
});

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
  const { tickets, contacts, changes, directory, events, cursors, notices, tagLinks, clock } = deps;

  const views = async (companyId: number, list: TicketRecord[], dir?: Directory): Promise<TicketView[]> => {
    const d = dir ?? (await directory.load(companyId));
    const byId = new Map((await contacts.findByIds(companyId, list.map((t) => t.contactId))).map((c) => [c.id, c]));
    return list.map((t) => toTicketView(t, d, byId.get(t.contactId)));
  };

  /**
   * The list's cards: each ticket carries its contact's card (docs/adr/0057; only items written before the copies
   * existed read their contact), and the queues, users, connections and tags they name are point reads reused for at
   * most a second on this instance; what is left to read goes in one batch read. A page whose names were read within
   * the second reads nothing here.
   */
  const cards = async (companyId: number, list: TicketCard[]): Promise<TicketView[]> => {
    if (!list.length) return [];
    const uncopied = [...new Set(list.filter((t) => t.contactCard === undefined).map((t) => t.contactId))];
    const lookups = () =>
      Promise.all([
        directory.loadFor(companyId, { ...needOf(list, {}), settings: false }, undefined, { reuse: true }),
        uncopied.length ? contacts.findByIds(companyId, uncopied) : Promise.resolve([]),
      ]);
    const [dir, found] = await (deps.coalesceReads ? deps.coalesceReads(lookups) : lookups());
    const byId = new Map(found.map((c) => [c.id, c]));
    return list.map((t) => toTicketView(t, dir, t.contactCard !== undefined ? t.contactCard : byId.get(t.contactId)));
  };

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

  /**
   * Tickets whose contact's name starts with a text or whose number starts with some digits, through the contacts'
   * name and number indexes and then each found contact's newest tickets: two reads in sequence. The ticket list's
   * search uses it only where the search index cannot answer (docs/adr/0055): a word shorter than the index's
   * shortest key, or no index at all.
   */
  const ticketIdsByContactPrefix = async (companyId: number, term: string, digits: string): Promise<number[]> => {
    const found = await contacts.searchPrefix(companyId, normalizeName(term), digits.length >= 3 ? digits : "", 20);
    return (await Promise.all(found.map((c) => tickets.listIdsByContact(companyId, c.id, 5)))).flat();
  };

  /**
   * GET /tickets?searchParam= (docs/adr/0035, 0055): after the caller's own read (auth), side by side: the company's
   * directory, the search index (contact names, numbers and protocols per ticket with the ticket's contact id, and the
   * whole message history), a protocol number's pointer and the caller's recent tickets by last message; then the
   * found tickets and the contacts of every candidate in one batch read. Three round trips in sequence; a fourth only
   * for a ticket whose contact the index did not name (a protocol of a ticket indexed before its protocol was).
   * Visibility (`visibleTo`), the status and tag filters, newest activity first, paged and counted as before.
   */
  const searchPage = async (auth: AuthContext, q: TicketListQuery, viewer: TicketViewer): Promise<TicketListResponse> => {
    const companyId = auth.companyId;
    const term = q.searchParam;
    const digits = searchedDigits(term);
    const protocol = /^\d{9,}$/.test(term.trim()) ? term.trim() : null;
    const history = deps.historySearch;
    // a number typed with spaces or punctuation is also looked up as its digits (a number's prefix, as the contacts'
    // number index answered); the text as typed finds names, messages and numbers written without punctuation
    const texts = [...new Set([term, ...(digits.length >= 3 ? [digits] : [])])];
    const prefixFallback = () => ticketIdsByContactPrefix(companyId, term, digits);
    const [dir, byHistory, byProtocol, byText, byContact] = await Promise.all([
      directory.load(companyId),
      history ? Promise.all(texts.map((x) => history(companyId, x, SEARCH_LIMIT))) : Promise.resolve(null),
      // a protocol number (YYYYMMDD + sequence) finds its cycle's ticket (also indexed; this finds older tickets too)
      protocol ? tickets.findIdByProtocol(companyId, protocol) : Promise.resolve(null),
      tickets.pageListByLastMessage({ companyId, viewer, query: q }, term, SEARCH_LIMIT),
      // names by a prefix shorter than the index's keys ("jo", "maria d"): the contacts' indexes, as before the index
      !history || shortForIndex(term) ? prefixFallback() : Promise.resolve(null),
    ]);
    const hits = (byHistory ?? []).flatMap((l) => l ?? []);
    // the index failed (logged): names and numbers from the contacts' own indexes after all (two more round trips)
    const byPrefix = byContact ?? (byHistory && byHistory.every((l) => l !== null) ? [] : await prefixFallback());
    const read = new Set(byText.items.map((t) => t.id));
    const ids = [...new Set([...(byProtocol !== null ? [byProtocol] : []), ...byPrefix, ...hits.map((h) => h.ticketId)])].filter((id) => !read.has(id));
    // every candidate's contact is known here (the index names it, a last-message ticket carries it): read with the tickets
    const contactIds = new Set([...hits.map((h) => h.contactId), ...byText.items.map((t) => t.contactId)]);
    const batch = () => Promise.all([ids.length ? tickets.findByIds(companyId, ids) : Promise.resolve([]), contacts.findByIds(companyId, [...contactIds])]);
    const [found, people] = await (deps.coalesceReads ? deps.coalesceReads(batch) : batch());
    const all = [...found, ...byText.items]
      .filter((t) => !q.status || t.status === q.status)
      .filter((t) => !q.tags.length || q.tags.some((tag) => t.tagIds.includes(tag)))
      .filter(visibleTo(viewer))
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.id - a.id));
    const start = (q.pageNumber - 1) * PAGE_SIZE;
    const page = all.slice(start, start + PAGE_SIZE);
    const byId = new Map(people.map((c) => [c.id, c]));
    // a page ticket whose contact nobody named (a protocol's ticket the index does not hold yet): read now
    const missing = [...new Set(page.map((t) => t.contactId).filter((id) => !contactIds.has(id)))];
    if (missing.length) for (const c of await contacts.findByIds(companyId, missing)) byId.set(c.id, c);
    return { tickets: page.map((t) => toTicketView(t, dir, byId.get(t.contactId))), count: all.length, hasMore: all.length > start + PAGE_SIZE };
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

    /**
     * GET /tickets (docs/adr/0036-ticket-list-keys.md). After the caller's own read (auth): the page's query and the
     * tab's count side by side; then the page's contacts and the queues, users, connections and tags its cards
     * name (point reads, never a per-instance cache), side by side with remembering the next page's cursor.
     */
    async list(auth: AuthContext, q: TicketListQuery): Promise<TicketListResponse> {
      if (auth.user.profile !== "admin") q = { ...q, users: [], showAll: false };
      const viewer = viewerOf(auth);
      if (q.searchParam) return searchPage(auth, q, viewer);
      const scope = { companyId: auth.companyId, viewer, query: q };
      // open and pending sets are small: their tab badges get an exact count; the closed history does not
      const exact = q.status === "open" || q.status === "pending";
      const [{ items, hasMore, nextPageToken }, counted] = await Promise.all([
        pageByNumberWith({
          cursors,
          tokens: deps.pageTokens,
          token: q.pageToken,
          companyId: auth.companyId,
          viewerId: auth.user.id,
          queryHash: hashQuery(tickets.listCacheKey(scope)),
          page: q.pageNumber,
          now: clock(),
          // only the cards' attributes (docs/adr/0050)
          fetch: (cursor, pages = 1) => tickets.pageListCards(scope, PAGE_SIZE * pages, cursor),
          // pages 1 and 2 from the start in one read, without a remembered cursor (docs/adr/0046): a first page
          // (every tab opened, every refresh) writes no cursor; a list with an item filter pages by cursor as before
          firstPages: tickets.readsWithoutItemFilter(scope) ? FIRST_PAGES_IN_ONE_READ : 1,
          pageSize: PAGE_SIZE,
          present: (page) => cards(auth.companyId, page.filter(visibleTo(viewer))),
        }),
        exact ? tickets.countList(scope) : null,
      ]);
      const count = counted ?? (q.pageNumber - 1) * PAGE_SIZE + items.length;
      return { tickets: items, count, hasMore, ...(nextPageToken ? { nextPageToken } : {}) };
    },

    /** GET /ticket/kanban: the caller's queues' open and pending tickets with their tags (bounded to 200). */
    async kanban(auth: AuthContext, queueIds: number[]): Promise<{ tickets: TicketView[] }> {
      const dir = await directory.load(auth.companyId);
      const viewer = viewerOf(auth);
      const q: TicketListQuery = { searchParam: "", pageNumber: 1, tags: [], users: [], queueIds, showAll: false, withUnreadMessages: false };
      const scope = { companyId: auth.companyId, viewer, companyQueueIds: [...dir.queues.keys()] };
      const page = await tickets.pageLists(
        [
          { ...scope, query: { ...q, status: "open" } },
          { ...scope, query: { ...q, status: "pending" } },
        ],
        200,
      );
      return { tickets: await views(auth.companyId, page.items.filter(visibleTo(viewer)), dir) };
    },

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
      if (auth.user.profile !== "admin" && input.queueId == null) throw new AppError("ERR_VALIDATION");
      if (auth.user.profile !== "admin" && input.queueId != null && !auth.user.queueIds.includes(input.queueId)) throw new AppError("ERR_NO_PERMISSION");
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
