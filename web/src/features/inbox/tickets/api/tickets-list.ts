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

export const fetchTickets = (params: TicketListParams, pageNumber: number, signal?: AbortSignal) =>
  api.get<TicketListResponse>("/tickets", {
    signal,
    query: {
      pageNumber,
      status: params.status,
      searchParam: params.searchParam || undefined,
      tags: params.tags?.length ? params.tags : undefined,
      users: params.users?.length ? params.users : undefined,
      queueIds: params.queueIds?.length ? params.queueIds : undefined,
      showAll: params.showAll ? "true" : undefined,
    },
  });

export const ticketsListOptions = (params: TicketListParams) =>
  infiniteQueryOptions({
    queryKey: ticketKeys.list(params),
    queryFn: ({ pageParam, signal }) => fetchTickets(params, pageParam, signal).then((page) => ({ ...page, tickets: page.tickets ?? [] })),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
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
