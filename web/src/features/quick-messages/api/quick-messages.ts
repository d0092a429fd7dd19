import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { QuickMessageListResponse, QuickMessageResponse } from "@atende/shared/contracts/http/quick-messages";
import { api } from "../../../lib/api-client";
import { pickerKeys } from "../../../lib/query-keys";

/** Quick messages (spec 3 section 7): the page list with search and paging, save, delete, attachment. */
export const quickMessageKeys = {
  all: ["quick-messages"] as const,
  list: (searchParam: string) => [...quickMessageKeys.all, "list", searchParam] as const,
};

export type QuickMessageForm = { shortcode: string; message: string; geral: boolean };

export const quickMessagesListOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: quickMessageKeys.list(searchParam),
    queryFn: ({ pageParam }) => api.get<QuickMessageListResponse>("/quick-messages", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useQuickMessagesList = (searchParam: string) => useInfiniteQuery(quickMessagesListOptions(searchParam));

/** The page's lists and the composer's suggestions (inbox-pickers) both change. */
export const invalidateQuickMessages = (qc: QueryClient) =>
  Promise.all([qc.invalidateQueries({ queryKey: quickMessageKeys.all }), qc.invalidateQueries({ queryKey: pickerKeys.quickMessagesAll() })]);

export const useSaveQuickMessage = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: QuickMessageForm }) =>
      id ? api.put<QuickMessageResponse>(`/quick-messages/${id}`, input) : api.post<QuickMessageResponse>("/quick-messages", input),
    onSuccess: () => invalidateQuickMessages(qc),
  });
};

export const useDeleteQuickMessage = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/quick-messages/${id}`), onSuccess: () => invalidateQuickMessages(qc) });
};

/** Uploads (file) or removes (null) the attachment. */
export const useQuickMessageMedia = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File | null }) => {
      if (!file) return api.delete<QuickMessageResponse>(`/quick-messages/${id}/media-upload`);
      const form = new FormData();
      form.append("typeArch", "quickMessage");
      form.append("file", file);
      return api.post<QuickMessageResponse>(`/quick-messages/${id}/media-upload`, form);
    },
    onSuccess: () => invalidateQuickMessages(qc),
  });
};
