import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { ScheduleListResponse, ScheduleMediaResponse, ScheduleResponse } from "@atende/shared/contracts/http/schedules";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import { api } from "../../../lib/api-client";

/** Scheduled messages (spec 3): the calendar's range, save, delete. */
export const scheduleKeys = {
  all: ["schedules"] as const,
  range: (from: string, to: string, searchParam: string) => [...scheduleKeys.all, "range", from, to, searchParam] as const,
};

/**
 * What the dialog sends: `whatsappId` null is the company's default connection. `sendAt` is an ISO instant.
 * `template` (Cloud API connections): the approved template sent instead of the text; null clears it on an edit.
 */
export type ScheduleForm = { contactId: number; body: string; sendAt: string; whatsappId: number | null; template?: TemplateSend | null };

/** A month holds tens of schedules, not thousands; the calendar stops at this many pages. */
const MAX_PAGES = 25;

/** Every schedule whose send time is within [from, to] (each page of GET /schedules/, in send-time order). */
export const scheduleRangeOptions = (from: string, to: string, searchParam: string) =>
  queryOptions({
    queryKey: scheduleKeys.range(from, to, searchParam),
    queryFn: async () => {
      const out: ScheduleResponse[] = [];
      for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
        const page = await api.get<ScheduleListResponse>("/schedules/", { query: { from, to, searchParam: searchParam || undefined, pageNumber } });
        out.push(...page.schedules);
        if (!page.hasMore) break;
      }
      return out;
    },
  });
export const useScheduleRange = (from: string, to: string, searchParam: string) => useQuery(scheduleRangeOptions(from, to, searchParam));

export const invalidateSchedules = (qc: QueryClient) => qc.invalidateQueries({ queryKey: scheduleKeys.all });

export const useSaveSchedule = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ScheduleForm }) =>
      id ? api.put<ScheduleResponse>(`/schedules/${id}`, input) : api.post<ScheduleResponse>("/schedules", input),
    onSuccess: () => invalidateSchedules(qc),
  });
};

export const useDeleteSchedule = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/schedules/${id}`), onSuccess: () => invalidateSchedules(qc) });
};

/** POST (a file) or DELETE (null) /schedules/{id}/media-upload: the attachment sent with the message. */
export const useScheduleMedia = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File | null }) => {
      if (!file) return api.delete<ScheduleMediaResponse>(`/schedules/${id}/media-upload`);
      const form = new FormData();
      form.append("file", file);
      return api.post<ScheduleMediaResponse>(`/schedules/${id}/media-upload`, form);
    },
    onSuccess: () => invalidateSchedules(qc),
  });
};
