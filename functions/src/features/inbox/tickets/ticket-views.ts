import type { TicketListResponse, TicketView } from "@atende/shared/contracts/http/tickets";
import { searchedDigits } from "@atende/shared/domain/format/phone";
import { shortForIndex } from "@atende/shared/domain/search/text-search";
import type { TicketListQuery } from "@atende/shared/domain/tickets/ticket";
import type { TicketViewer } from "@atende/shared/domain/tickets/visibility";
import { seesEveryTicket } from "@atende/shared/domain/permissions/permissions";
import { hashQuery, pageByNumberWith, type PageCursors, type PageTokens } from "../../../platform/db/page-cursors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { ContactsRepository } from "../contacts/contacts.repository";
import { normalizeName } from "../contacts/contact-identity";
import { toTicketView, type Directory, type InboxDirectory } from "./inbox-directory";
import { visibleTo } from "./ticket-list";
import type { TicketCard, TicketRecord, TicketsRepository } from "./tickets.repository";
import { PAGE_SIZE } from "@atende/shared/constants/business";

/** A ticket the search index found for a text, with its contact (the card's contact is read with the ticket). */
export type HistoryHit = { ticketId: number; contactId: number };
/** null: the index failed (the list then reads names and numbers from the contacts' own indexes). */
export type HistorySearch = (companyId: number, text: string, limit: number) => Promise<HistoryHit[] | null>;

const SEARCH_LIMIT = 60;
/** Pages of a list without an item filter served by one read from the start (no cursor read or write; docs/adr/0046). */
const FIRST_PAGES_IN_ONE_READ = 2;

type Refs = { queueId?: number | null; userId?: number | null; whatsappId?: number | null };
/** The queues, users, connections and tags some tickets (and a request's references) name. */
export const needOf = (list: (Refs & { tagIds?: number[] })[], input: Refs) => ({
  queueIds: [...list.map((t) => t.queueId), input.queueId],
  userIds: [...list.map((t) => t.userId), input.userId],
  whatsappIds: [...list.map((t) => t.whatsappId), input.whatsappId],
  tagIds: list.flatMap((t) => t.tagIds ?? []),
});

export const viewerOf = (auth: AuthContext): TicketViewer => ({
  userId: auth.user.id,
  profile: auth.user.profile,
  queueIds: auth.user.queueIds,
  allTicket: auth.user.allTicket,
});

/**
 * The tickets as the lists show them: GET /tickets (its search too), the kanban, and the cards of some tickets.
 * Part of the tickets service (tickets.service.ts).
 */
export const createTicketViews = (deps: {
  tickets: TicketsRepository;
  contacts: ContactsRepository;
  directory: InboxDirectory;
  cursors: PageCursors;
  /** the lists' page tokens (docs/adr/0040): a later page opened with one needs no cursor read */
  pageTokens?: PageTokens;
  /** runs the cards' point reads (contacts, queues, users, connections, tags) as one batch read (docs/adr/0040) */
  coalesceReads?: <T>(fn: () => Promise<T>) => Promise<T>;
  clock: () => Date;
  /**
   * tickets whose whole history, contact name, number or protocol matches a text, each with its contact's id (the
   * search index, docs/adr/0035, 0055); absent: names and numbers through the contacts' indexes and last messages
   */
  historySearch?: HistorySearch;
}) => {
  const { tickets, contacts, directory, cursors, clock } = deps;

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
  return {
    views,

    /**
     * GET /tickets (docs/adr/0036-ticket-list-keys.md). After the caller's own read (auth): the page's query and the
     * tab's count side by side; then the page's contacts and the queues, users, connections and tags its cards
     * name (point reads, never a per-instance cache), side by side with remembering the next page's cursor.
     */
    async list(auth: AuthContext, q: TicketListQuery): Promise<TicketListResponse> {
      if (!seesEveryTicket(auth.user.profile)) q = { ...q, users: [], showAll: false };
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
  };
};
