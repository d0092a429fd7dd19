import type { PromptVoice } from "../../domain/prompts/prompt";

/** GET /prompt/{id} and items of GET /prompt. `apiKey` and `voiceKey` are masked (never the stored secret). */
export type PromptResponse = {
  id: number;
  name: string;
  prompt: string;
  voice: PromptVoice;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  apiKey: string;
  queueId: number | null;
  /** the bound queue, as the list shows it (null when the queue was deleted) */
  queue: { id: number; name: string; color: string } | null;
  maxMessages: number;
  companyId: number;
  createdAt: string;
  updatedAt: string;
};

/** GET /prompt */
export type PromptListResponse = { prompts: PromptResponse[] };

/** Realtime `prompt` on company-{id}-prompt (admins). */
export type PromptEventData = { action: "create" | "update"; prompt: PromptResponse } | { action: "delete"; promptId: number };
