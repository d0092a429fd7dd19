import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { AnnouncementListResponse, AnnouncementResponse } from "@atende/shared/contracts/http/announcements";
import type { AnnouncementPriority } from "@atende/shared/domain/announcements/announcement";
import { api } from "../../../lib/api-client";

/** Announcements (spec 3 section 7): the page list and the top-bar popover share one query per search term. */
export const announcementKeys = {
  all: ["announcements"] as const,
  list: (searchParam: string) => [...announcementKeys.all, "list", searchParam] as const,
};

export type AnnouncementForm = { title: string; text: string; priority: AnnouncementPriority; status: boolean };

export const announcementsListOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: announcementKeys.list(searchParam),
    queryFn: ({ pageParam }) => api.get<AnnouncementListResponse>("/announcements", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useAnnouncementsList = (searchParam: string) => useInfiniteQuery(announcementsListOptions(searchParam));

export const invalidateAnnouncements = (qc: QueryClient) => qc.invalidateQueries({ queryKey: announcementKeys.all });

export const useSaveAnnouncement = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: AnnouncementForm }) =>
      id ? api.put<AnnouncementResponse>(`/announcements/${id}`, input) : api.post<AnnouncementResponse>("/announcements", input),
    onSuccess: () => invalidateAnnouncements(qc),
  });
};

export const useDeleteAnnouncement = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/announcements/${id}`), onSuccess: () => invalidateAnnouncements(qc) });
};

/** Uploads (file) or removes (null) the image. */
export const useAnnouncementMedia = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File | null }) => {
      if (!file) return api.delete<AnnouncementResponse>(`/announcements/${id}/media-upload`);
      const form = new FormData();
      form.append("file", file);
      return api.post<AnnouncementResponse>(`/announcements/${id}/media-upload`, form);
    },
    onSuccess: () => invalidateAnnouncements(qc),
  });
};
