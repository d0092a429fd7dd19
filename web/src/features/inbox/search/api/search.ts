import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { SearchResponse, TicketSearchResponse } from "@atende/shared/contracts/http/search";
import { api } from "../../../../lib/api-client";

/** Full-text search (docs/adr/0035): GET /search (tickets with a snippet), GET /search/tickets/{id} (a conversation's matches). */
export const searchKeys = {
  all: ["search"] as const,
  results: (q: string) => [...searchKeys.all, "results", q] as const,
  inTicket: (ticketId: number, q: string) => [...searchKeys.all, "ticket", ticketId, q] as const,
};

export const searchResultsOptions = (q: string) =>
  queryOptions({
    queryKey: searchKeys.results(q),
    queryFn: () => api.get<SearchResponse>("/search", { query: { q, limit: 30 } }),
    enabled: !!q,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
export const useSearchResults = (q: string) => useQuery(searchResultsOptions(q));

export const useTicketSearch = (ticketId: number, q: string) =>
  useQuery({
    queryKey: searchKeys.inTicket(ticketId, q),
    queryFn: () => api.get<TicketSearchResponse>(`/search/tickets/${ticketId}`, { query: { q } }),
    enabled: !!q,
    staleTime: 5_000,
  });
