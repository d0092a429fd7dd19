import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { TagPageResponse, TagView } from "@atende/shared/contracts/http/tags";
import { api } from "../../../lib/api-client";
import { kanbanKeys, pickerKeys } from "../../../lib/query-keys";

/** Tags (spec 3 section 7): the page list with search and paging, save, delete. */
export const tagKeys = {
  all: ["tags"] as const,
  list: (searchParam: string) => [...tagKeys.all, "list", searchParam] as const,
};

export type TagForm = { name: string; color: string; kanban: 0 | 1 };

export const tagsListOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: tagKeys.list(searchParam),
    queryFn: ({ pageParam }) => api.get<TagPageResponse>("/tags/", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useTagsList = (searchParam: string) => useInfiniteQuery(tagsListOptions(searchParam));

/** The page's lists, the ticket tag picker and the kanban lanes all show tags. */
export const invalidateTags = (qc: QueryClient) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: tagKeys.all }),
    qc.invalidateQueries({ queryKey: pickerKeys.tags() }),
    qc.invalidateQueries({ queryKey: kanbanKeys.all }),
  ]);

export const useSaveTag = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: TagForm }) => (id ? api.put<TagView>(`/tags/${id}`, input) : api.post<TagView>("/tags", input)),
    onSuccess: () => invalidateTags(qc),
  });
};

export const useDeleteTag = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/tags/${id}`), onSuccess: () => invalidateTags(qc) });
};
