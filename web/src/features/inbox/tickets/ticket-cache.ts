import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { TicketListResponse, TicketView } from "@atende/shared/contracts/http/tickets";
import { type TicketListParams, ticketKeys } from "./api/tickets-list";

/**
 * Live updates of the ticket lists in the react-query cache (spec 1 "Live list updates"), without refetching:
 * an updated ticket moves to the top of the lists whose status/filters it matches and leaves the others;
 * search results (free text, tags, users) are only updated in place, never grown.
 */
type Pages = InfiniteData<TicketListResponse, number>;

const isSearch = (p: TicketListParams) => !!(p.searchParam || p.tags?.length || p.users?.length);

export const ticketMatchesList = (ticket: TicketView, params: TicketListParams): boolean => {
  if (params.status && ticket.status !== params.status) return false;
  // a queue-less ticket belongs to queue-filtered lists too (the server lists it for those who may see it)
  if (params.queueIds?.length && ticket.queueId !== null && !params.queueIds.includes(ticket.queueId)) return false;
  return true;
};

export const upsertInPages = (data: Pages, ticket: TicketView, params: TicketListParams): Pages => {
  const present = data.pages.some((page) => page.tickets.some((t) => t.id === ticket.id));
  const matches = ticketMatchesList(ticket, params);
  if (isSearch(params)) {
    if (!present) return data;
    return { ...data, pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.map((t) => (t.id === ticket.id ? ticket : t)) })) };
  }
  const without = data.pages.map((page) => ({ ...page, tickets: page.tickets.filter((t) => t.id !== ticket.id) }));
  const delta = (matches ? 1 : 0) - (present ? 1 : 0);
  const pages = without.map((page, i) => ({
    ...page,
    count: Math.max(0, (page.count ?? 0) + delta),
    tickets: i === 0 && matches ? [ticket, ...page.tickets] : page.tickets,
  }));
  return { ...data, pages };
};

export const removeFromPages = (data: Pages, ticketId: number): Pages => {
  const present = data.pages.some((page) => page.tickets.some((t) => t.id === ticketId));
  if (!present) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, count: Math.max(0, (page.count ?? 0) - 1), tickets: page.tickets.filter((t) => t.id !== ticketId) })) };
};

const forEachList = (qc: QueryClient, fn: (data: Pages, params: TicketListParams) => Pages) => {
  for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: ticketKeys.lists() })) {
    if (!data?.pages) continue;
    const params = (key[2] ?? {}) as TicketListParams;
    qc.setQueryData<Pages>(key, fn(data, params));
  }
};

/**
 * Frames of one ticket may arrive out of order (published by different consumers at once), and a mutation's answer
 * may arrive after a later frame: a state whose version (the ticket's write count) is lower than the one on screen
 * is ignored, so an older state never replaces a newer one. updatedAt cannot say this: a write that takes its time
 * after an untouched update keeps or even precedes it.
 */
const olderThanCached = (qc: QueryClient, ticket: TicketView) => {
  if (ticket.version === undefined) return false;
  const open = qc.getQueryData<TicketView>(ticketKeys.byUuid(ticket.uuid));
  return Math.max(newestCachedVersion(qc, ticket.id), open?.version ?? -1) > ticket.version;
};

/**
 * The highest version of a ticket among the cached lists. Lists read at different moments (a resync re-reads each
 * one, a search list is only patched in place) may hold different states of one ticket: the newest one decides.
 */
const newestCachedVersion = (qc: QueryClient, ticketId: number): number => {
  let newest = -1;
  for (const [, data] of qc.getQueriesData<Pages>({ queryKey: ticketKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      for (const t of page.tickets) if (t.id === ticketId && t.version !== undefined && t.version > newest) newest = t.version;
    }
  }
  return newest;
};

export const applyTicketUpdate = (qc: QueryClient, ticket: TicketView) => {
  if (olderThanCached(qc, ticket)) return;
  forEachList(qc, (data, params) => upsertInPages(data, ticket, params));
  if (qc.getQueryData(ticketKeys.byUuid(ticket.uuid))) qc.setQueryData(ticketKeys.byUuid(ticket.uuid), ticket);
};

export const removeTicketFromLists = (qc: QueryClient, ticketId: number) => forEachList(qc, (data) => removeFromPages(data, ticketId));

/** Patches one ticket wherever it is cached (unread reset, presence) without moving it. */
export const patchTicket = (qc: QueryClient, ticketId: number, patch: Partial<TicketView>) => {
  forEachList(qc, (data) => ({
    ...data,
    pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.map((t) => (t.id === ticketId ? { ...t, ...patch } : t)) })),
  }));
  for (const [key, ticket] of qc.getQueriesData<TicketView>({ queryKey: ticketKeys.byUuids() })) {
    if (ticket?.id === ticketId) qc.setQueryData(key, { ...ticket, ...patch });
  }
};
