import { type QueryClient, infiniteQueryOptions, useInfiniteQuery, useMutation } from "@tanstack/react-query";
import type { InvoiceListResponse, SubscriptionResponse } from "@atende/shared/contracts/http/invoices";
import { api } from "../../../lib/api-client";

/** Invoices and checkout (spec 2 "Invoices and subscription"). */
export const invoiceKeys = {
  all: ["invoices"] as const,
  lists: () => [...invoiceKeys.all, "list"] as const,
  list: (searchParam: string) => [...invoiceKeys.lists(), searchParam] as const,
};

export const invoicesListOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: invoiceKeys.list(searchParam),
    queryFn: ({ pageParam }) => api.get<InvoiceListResponse>("/invoices/all", { query: { searchParam: searchParam || undefined, pageNumber: pageParam, paged: 1 } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useInvoicesList = (searchParam: string) => useInfiniteQuery(invoicesListOptions(searchParam));
export const invalidateInvoices = (qc: QueryClient) => qc.invalidateQueries({ queryKey: invoiceKeys.lists() });

export type SubscriptionRequest = {
  invoiceId: number;
  plan: { users: number; connections: number; price: number };
  price: number;
  users: number;
  connections: number;
};

/** POST /subscription: the Pix charge of the invoice (copy-paste code and amount). */
export const useSubscribe = () => useMutation({ mutationFn: (input: SubscriptionRequest) => api.post<SubscriptionResponse>("/subscription", input) });
