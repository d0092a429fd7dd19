import { type QueryClient, infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { TicketListResponse } from "@atende/shared/contracts/http/tickets";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import { api } from "../../../../lib/api-client";

/** GET /tickets (spec 1 section 7): one infinite query per tab and filter set, paged by pageNumber. */
export type TicketListParams = {
  status?: TicketStatus;
  searchParam?: string;
  tags?: number[];
  users?: number[];
  queueIds?: number[];
  showAll?: boolean;
};

export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => [...ticketKeys.all, "list"] as const,
  list: (params: TicketListParams) => [...ticketKeys.lists(), params] as const,
  byUuids: () => [...ticketKeys.all, "uuid"] as const,
  byUuid: (uuid: string) => [...ticketKeys.byUuids(), uuid] as const,
  unread: () => [...ticketKeys.all, "unread"] as const,
};

export const fetchTickets = (params: TicketListParams, pageNumber: number, signal?: AbortSignal, pageToken?: string) =>
  api.get<TicketListResponse>("/tickets", {
    signal,
    query: {
      pageNumber,
      // the previous page's token: the server opens this page without reading its remembered cursor (docs/adr/0040)
      pageToken: pageNumber > 1 ? pageToken : undefined,
      status: params.status,
      searchParam: params.searchParam || undefined,
      tags: params.tags?.length ? params.tags : undefined,
      users: params.users?.length ? params.users : undefined,
      queueIds: params.queueIds?.length ? params.queueIds : undefined,
      showAll: params.showAll ? "true" : undefined,
    },
  });

/** A page to fetch: its number and the token the previous page's answer carried (a bare number: no token). */
type PageParam = number | { pageNumber: number; pageToken?: string };

export const ticketsListOptions = (params: TicketListParams) =>
  infiniteQueryOptions({
    queryKey: ticketKeys.list(params),
    queryFn: ({ pageParam, signal }) => {
      const page = typeof pageParam === "number" ? { pageNumber: pageParam } : pageParam;
      return fetchTickets(params, page.pageNumber, signal, page.pageToken).then((res) => ({ ...res, tickets: res.tickets ?? [] }));
    },
    initialPageParam: 1 as PageParam,
    getNextPageParam: (last, pages): PageParam | undefined => (last.hasMore ? { pageNumber: pages.length + 1, pageToken: last.nextPageToken } : undefined),
    staleTime: 15_000,
  });

export const useTicketsList = (params: TicketListParams, enabled = true) => useInfiniteQuery({ ...ticketsListOptions(params), enabled });

/**
 * The lists the tickets screen asks for first (the open tab's "assigned" and "pending" counts and cards, as
 * TicketsManager builds their params before any switch is touched): the signed-in shell starts them together with
 * the page's code instead of after it (issue 15: first card ≤ 1 s).
 */
export const INITIAL_LIST_PARAMS: TicketListParams[] = [
  { status: "open", showAll: false },
  { status: "pending", showAll: false },
];
export const prefetchTicketLists = (queryClient: QueryClient) => Promise.all(INITIAL_LIST_PARAMS.map((params) => queryClient.prefetchInfiniteQuery(ticketsListOptions(params))));
