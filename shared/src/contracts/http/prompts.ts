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
  /** issue 11: the model ("" = the default), the OpenAI-compatible endpoint ("" = OpenAI's), the handover words, the monthly cap (0 = none) */
  model: string;
  baseUrl: string;
  handoverKeywords: string[];
  monthlyTokenCap: number;
  /** tokens this prompt used this month (UTC), as counted by the bot runner */
  tokensThisMonth: number;
  companyId: number;
  createdAt: string;
  updatedAt: string;
};

/** The company's model tokens this month (UTC), all prompts together. */
export type PromptUsage = { month: string; promptTokens: number; completionTokens: number; totalTokens: number };

/** GET /prompt */
export type PromptListResponse = { prompts: PromptResponse[]; usage: PromptUsage };

/** Realtime `prompt` on company-{id}-prompt (admins). */
export type PromptEventData = { action: "create" | "update"; prompt: PromptResponse } | { action: "delete"; promptId: number };
