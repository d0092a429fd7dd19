import type { SlaPolicy } from "@atende/shared/domain/service-levels/sla";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { QueueOptionResponse, QueueResponse } from "@atende/shared/contracts/http/queues";
import type { ScheduleEntry } from "@atende/shared/domain/queues/queues";
import { api } from "../../../lib/api-client";
import { queueKeys } from "../../../lib/query-keys";

/** Queues (spec 2 section 7 "Queues") and their chatbot option trees. */

export type QueueForm = {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | "" | null;
  promptId?: number | null;
  integrationId?: number | null;
  /** issue 30: the published flow a new conversation in this queue starts */
  flowId?: number | null;
  schedules?: ScheduleEntry[];
  /** issue 13: SLA targets (null: no SLA) */
  sla?: SlaPolicy | null;
};

export const useSaveQueue = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: QueueForm }) => (id ? api.put<QueueResponse>(`/queue/${id}`, input) : api.post<QueueResponse>("/queue", input)),
    onSuccess: () => qc.invalidateQueries({ queryKey: queueKeys.list() }),
  });
};

export const useDeleteQueue = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/queue/${id}`), onSuccess: () => qc.invalidateQueries({ queryKey: queueKeys.list() }) });
};

export const useQueueMedia = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File | null }) => {
      if (!file) return api.delete<QueueResponse>(`/queue/${id}/media-upload`);
      const form = new FormData();
      form.append("file", file);
      return api.post<QueueResponse>(`/queue/${id}/media-upload`, form);
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: queueKeys.list() }),
  });
};

export const queueOptionsQueryOptions = (queueId: number, parentId: number | null) =>
  queryOptions({
    queryKey: queueKeys.options(queueId, parentId),
    queryFn: () => api.get<QueueOptionResponse[]>("/queue-options", { query: { queueId, parentId: parentId ?? -1 } }),
  });
export const useQueueOptions = (queueId: number, parentId: number | null) => useQuery(queueOptionsQueryOptions(queueId, parentId));

const invalidateLevel = (qc: ReturnType<typeof useQueryClient>, queueId: number, parentId: number | null) =>
  qc.invalidateQueries({ queryKey: queueKeys.options(queueId, parentId) });

export const useSaveQueueOption = (queueId: number, parentId: number | null) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title, message, option }: { id?: number; title: string; message: string; option?: string }) =>
      id ? api.put<QueueOptionResponse>(`/queue-options/${id}`, { title, message, option }) : api.post<QueueOptionResponse>("/queue-options", { queueId, parentId, title, message }),
    onSuccess: () => invalidateLevel(qc, queueId, parentId),
  });
};

export const useDeleteQueueOption = (queueId: number, parentId: number | null) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/queue-options/${id}`), onSuccess: () => invalidateLevel(qc, queueId, parentId) });
};

export const useQueueOptionMedia = (queueId: number, parentId: number | null) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const form = new FormData();
      form.append("file", file);
      return api.post<QueueOptionResponse>(`/queue-options/${id}/media-upload`, form);
    },
    onSuccess: () => invalidateLevel(qc, queueId, parentId),
  });
};

type Named = { id: number; name: string };
const namedList = (value: unknown, key: string): Named[] => {
  if (Array.isArray(value)) return value as Named[];
  const inner = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return Array.isArray(inner) ? (inner as Named[]) : [];
};

/** GET /prompt and GET /queueIntegration: pick-lists of the queue modal (empty when the feature is absent). */
export const promptsPickerOptions = () =>
  queryOptions({ queryKey: queueKeys.prompts(), queryFn: async () => namedList(await api.get("/prompt"), "prompts"), staleTime: 60_000, retry: false, meta: { silentError: true } });
export const integrationsPickerOptions = () =>
  queryOptions({
    queryKey: queueKeys.integrations(),
    queryFn: async () => namedList(await api.get("/queueIntegration"), "queueIntegrations"),
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
