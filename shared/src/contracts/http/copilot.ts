import * as z from "zod";
import { flag, NONE_VALUES } from "../body-values";

/**
 * The attendants' copilot (issue 33, docs/adr/0099): the company's own OpenAI-compatible provider answers summaries,
 * suggested replies, rewrites and voice-note transcripts. Settings are an admin page; the rest is for whoever may
 * see the ticket.
 */

export const COPILOT_FEATURES = ["summary", "suggestions", "rewrite", "transcription"] as const;
export type CopilotFeature = (typeof COPILOT_FEATURES)[number];

export const REWRITE_STYLES = ["fix", "formal", "friendly", "shorter"] as const;
export type RewriteStyle = (typeof REWRITE_STYLES)[number];

const featureFlags = z.object({
  summary: flag().default(false),
  suggestions: flag().default(false),
  rewrite: flag().default(false),
  transcription: flag().default(false),
});

/**
 * PUT /copilot/settings. `apiKey`: absent, empty or the masked value answered keeps the stored key; anything else
 * replaces it (sealed). `baseUrl`: empty = OpenAI's own endpoint. `monthlyTokenCap`: 0 or absent = no cap.
 */
export const copilotSettingsSchema = z.object({
  enabled: flag(),
  baseUrl: z.string().trim().max(500).default(""),
  apiKey: z.string().trim().max(500).optional(),
  model: z.string().trim().max(100).default(""),
  transcriptionModel: z.union([z.string().trim().max(100), z.null().transform(() => undefined)]).optional(),
  features: featureFlags.default({ summary: false, suggestions: false, rewrite: false, transcription: false }),
  /** the receiving attendant gets the summary as an internal note when a ticket is transferred to them */
  summaryOnTransfer: flag().optional(),
  // a spec client's "none" (null, false, "") is no cap, like 0
  monthlyTokenCap: z.union([z.number().int().min(0).max(1_000_000_000), z.literal(NONE_VALUES).transform(() => 0)]).optional(),
});
export type CopilotSettingsInput = z.infer<typeof copilotSettingsSchema>;

/** GET/PUT /copilot/settings: the key is never answered, only its mask ("" when none is stored). */
export type CopilotSettingsResponse = {
  enabled: boolean;
  baseUrl: string;
  apiKey: string;
  model: string;
  transcriptionModel: string;
  features: Record<CopilotFeature, boolean>;
  summaryOnTransfer: boolean;
  monthlyTokenCap: number;
  /** the company's AI tokens this month (UTC), bots and copilot together (the usage records) */
  tokensThisMonth: number;
};

/** POST /copilot/settings/test: the stored settings, or the ones being edited (a key not yet saved); absent = stored. */
export const copilotTestSchema = z.object({
  baseUrl: z.string().trim().max(500).optional(),
  apiKey: z.string().trim().max(500).optional(),
  model: z.string().trim().max(100).optional(),
});
/** `ok` false: `status` is the provider's HTTP status (0: unreachable or timed out). */
export type CopilotTestResponse = { ok: boolean; status: number; model: string };

export type CopilotSummaryResponse = { summary: string };
export type CopilotSuggestionsResponse = { suggestions: string[] };

export const rewriteSchema = z.object({
  text: z.string().trim().min(1).max(4000),
  style: z.enum(REWRITE_STYLES),
});
export type RewriteInput = z.infer<typeof rewriteSchema>;
export type CopilotRewriteResponse = { text: string };

/** GET /copilot/features (every signed-in user): which copilot buttons the inbox shows. */
export type CopilotAvailability = Record<CopilotFeature, boolean>;
