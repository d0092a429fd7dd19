import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type {
  DialogflowTestResponse,
  QueueIntegrationEventData,
  QueueIntegrationListResponse,
  QueueIntegrationResponse,
  QueueIntegrationSavedResponse,
} from "@atende/shared/contracts/http/queue-integrations";
import type { DialogflowTestInput, IntegrationType } from "@atende/shared/domain/queue-integrations/queue-integration";
import { api } from "../../../lib/api-client";
import { queueKeys } from "../../../lib/query-keys";

/** Queue integrations (spec 3 section 7): GET /queueIntegration/ (searchParam, pageNumber), CRUD, DialogFlow test. */
export const queueIntegrationKeys = {
  all: ["queue-integrations"] as const,
  list: (searchParam: string) => [...queueIntegrationKeys.all, "list", searchParam] as const,
};

/** The dialog's form: every field; the server keeps the chosen type's ones. */
export type QueueIntegrationForm = {
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
};

export const queueIntegrationsListOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: queueIntegrationKeys.list(searchParam),
    queryFn: ({ pageParam }) =>
      api.get<QueueIntegrationListResponse>("/queueIntegration/", { query: { searchParam: searchParam || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useQueueIntegrationsList = (searchParam: string) => useInfiniteQuery(queueIntegrationsListOptions(searchParam));

/** The pickers of the queue and connection dialogs read GET /queueIntegration too. */
const invalidatePickers = (qc: QueryClient) => qc.invalidateQueries({ queryKey: queueKeys.integrations() });

export const useSaveQueueIntegration = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: QueueIntegrationForm }) =>
      id ? api.put<QueueIntegrationSavedResponse>(`/queueIntegration/${id}`, input) : api.post<QueueIntegrationSavedResponse>("/queueIntegration", input),
    onSuccess: (saved, { id }) => {
      // a new signing secret (n8n/webhook) is for the dialog to show once, never for the cached lists
      const { webhookSecret: _shownOnce, ...record } = saved;
      applyQueueIntegrationEvent(qc, { action: id ? "update" : "create", queueIntegration: record as QueueIntegrationResponse });
      void invalidatePickers(qc);
    },
  });
};

export const useDeleteQueueIntegration = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/queueIntegration/${id}`),
    onSuccess: (_out, id) => {
      applyQueueIntegrationEvent(qc, { action: "delete", integrationId: id });
      void invalidatePickers(qc);
    },
  });
};

export const useTestDialogflow = () => useMutation({ mutationFn: (input: DialogflowTestInput) => api.post<DialogflowTestResponse>("/queueIntegration/testSession", input) });

type Pages = InfiniteData<QueueIntegrationListResponse, number>;

/**
 * Realtime `queueIntegration` (spec 3 section 4): create or replace the item in every loaded list, or remove it by
 * integrationId. A new item goes on top of the first page.
 */
export const applyQueueIntegrationEvent = (qc: QueryClient, event: QueueIntegrationEventData) => {
  for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: queueIntegrationKeys.all })) {
    if (!data) continue;
    const search = String(key[2] ?? "");
    qc.setQueryData<Pages>(key, applyToPages(data, event, search));
  }
};

const applyToPages = (data: Pages, event: QueueIntegrationEventData, search: string): Pages => {
  if (event.action === "delete") {
    return { ...data, pages: data.pages.map((p) => ({ ...p, queueIntegrations: p.queueIntegrations.filter((i) => i.id !== event.integrationId) })) };
  }
  const item = event.queueIntegration;
  const present = data.pages.some((p) => p.queueIntegrations.some((i) => i.id === item.id));
  if (present) return { ...data, pages: data.pages.map((p) => ({ ...p, queueIntegrations: p.queueIntegrations.map((i) => (i.id === item.id ? item : i)) })) };
  // a new item joins only the lists whose search it matches
  const [first, ...rest] = data.pages;
  if (!first || !item.name.toLowerCase().includes(search)) return data;
  return { ...data, pages: [{ ...first, queueIntegrations: [item, ...first.queueIntegrations] }, ...rest] };
};
