import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { PromptEventData, PromptListResponse, PromptResponse } from "@atende/shared/contracts/http/prompts";
import type { PromptVoice } from "@atende/shared/domain/prompts/prompt";
import { api } from "../../../lib/api-client";
import { queueKeys } from "../../../lib/query-keys";

/** AI prompts (spec 3 section 7): GET /prompt, GET/PUT/DELETE /prompt/{id}, POST /prompt. */
export const promptKeys = {
  all: ["prompts"] as const,
  list: () => [...promptKeys.all, "list"] as const,
};

/** What the dialog sends. An empty `apiKey`/`voiceKey` on edit keeps the saved secret. */
export type PromptForm = {
  name: string;
  prompt: string;
  voice: PromptVoice;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  apiKey: string;
  queueId: number | null;
  maxMessages: number;
  /** issue 11: model ("" = default), OpenAI-compatible address ("" = OpenAI), handover words (comma-separated), monthly token cap (0 = none) */
  model: string;
  baseUrl: string;
  handoverKeywords: string;
  monthlyTokenCap: number;
};

export const promptsQueryOptions = () => queryOptions({ queryKey: promptKeys.list(), queryFn: () => api.get<PromptListResponse>("/prompt") });
export const usePrompts = () => useQuery(promptsQueryOptions());

/** The page's list and the queue/connection pickers both change. */
const invalidatePrompts = (qc: QueryClient) =>
  Promise.all([qc.invalidateQueries({ queryKey: promptKeys.all }), qc.invalidateQueries({ queryKey: queueKeys.prompts() })]);

export const useSavePrompt = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: Partial<PromptForm> }) => (id ? api.put<PromptResponse>(`/prompt/${id}`, input) : api.post<PromptResponse>("/prompt", input)),
    onSuccess: () => invalidatePrompts(qc),
  });
};

export const useDeletePrompt = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete<{ message: string }>(`/prompt/${id}`), onSuccess: () => invalidatePrompts(qc) });
};

/** Realtime `prompt`: create or replace the item, or remove it by promptId. */
export const applyPromptEvent = (qc: QueryClient, event: PromptEventData) => {
  qc.setQueryData<PromptListResponse>(promptKeys.list(), (current) => {
    if (!current) return current;
    if (event.action === "delete") return { ...current, prompts: current.prompts.filter((p) => p.id !== event.promptId) };
    const exists = current.prompts.some((p) => p.id === event.prompt.id);
    return { ...current, prompts: exists ? current.prompts.map((p) => (p.id === event.prompt.id ? event.prompt : p)) : [...current.prompts, event.prompt] };
  });
  void qc.invalidateQueries({ queryKey: queueKeys.prompts() });
};
