import * as z from "zod";
import { optionalNum, optionalText, requiredId } from "../../contracts/body-values";
import { DEFAULT_HANDOVER_KEYWORDS, parseKeywordList } from "../bots/handover-keywords";

/** Spec 3 section 9: "texto" (answer in text) plus 15 Brazilian neural voices (Azure speech). */
export const PROMPT_VOICES = [
  "texto",
  "pt-BR-FranciscaNeural",
  "pt-BR-AntonioNeural",
  "pt-BR-BrendaNeural",
  "pt-BR-DonatoNeural",
  "pt-BR-ElzaNeural",
  "pt-BR-FabioNeural",
  "pt-BR-GiovannaNeural",
  "pt-BR-HumbertoNeural",
  "pt-BR-JulioNeural",
  "pt-BR-LeilaNeural",
  "pt-BR-LeticiaNeural",
  "pt-BR-ManuelaNeural",
  "pt-BR-NicolauNeural",
  "pt-BR-ValerioNeural",
  "pt-BR-YaraNeural",
] as const;
export type PromptVoice = (typeof PROMPT_VOICES)[number];

/** Spec 3 section 9 defaults; issue 11 adds the model, the endpoint, the handover words and the monthly token cap. */
export const PROMPT_DEFAULTS = {
  voice: "texto" as PromptVoice,
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  /** shown as the model field's placeholder; an empty model means this one */
  model: "gpt-4o-mini",
  handoverKeywords: [...DEFAULT_HANDOVER_KEYWORDS] as string[],
  /** 0 = no cap */
  monthlyTokenCap: 0,
};

/** The error the prompt dialog shows when no queue is chosen (spec 3 section 5). */
export const PROMPT_QUEUE_REQUIRED = "Informe o setor";

const text = (max: number) => optionalText(z.string().trim().max(max, "Too Long!"));
const maxTokens = z.number().int().min(1).max(16_000);
const temperature = z.number().min(0).max(2);
const maxMessages = z.number().int().min(1).max(100);
const monthlyTokenCap = z.number().int().min(0).max(1_000_000_000);
/** Any OpenAI-compatible endpoint (http or https); empty means OpenAI's own. */
const baseUrl = optionalText(
  z
    .string()
    .trim()
    .max(500, "Too Long!")
    .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "Invalid URL"),
);
/** Comma- or line-separated text, or a list: at most 20 words or phrases of up to 60 characters. */
const handoverKeywords = z
  .union([z.array(z.string().max(60, "Too Long!")).max(20), z.string().max(2000, "Too Long!")])
  .transform((v) => parseKeywordList(v))
  .pipe(z.array(z.string().max(60, "Too Long!")).max(20, "Too Long!"));

const promptFields = {
  name: z.string().trim().min(1, "Required").max(100, "Too Long!"),
  prompt: z.string().trim().min(1, "Required").max(20_000, "Too Long!"),
  voice: z.enum(PROMPT_VOICES).default(PROMPT_DEFAULTS.voice),
  voiceKey: text(500).optional().default(""),
  voiceRegion: text(100).optional().default(""),
  maxTokens: optionalNum(maxTokens.default(PROMPT_DEFAULTS.maxTokens)),
  temperature: optionalNum(temperature.default(PROMPT_DEFAULTS.temperature)),
  /** a secret: stored as sent, answered masked (see maskSecret) */
  apiKey: z.string().trim().min(1, "Required").max(500, "Too Long!"),
  queueId: requiredId(PROMPT_QUEUE_REQUIRED),
  maxMessages: optionalNum(maxMessages.default(PROMPT_DEFAULTS.maxMessages)),
  /** the model name at the endpoint; empty = PROMPT_DEFAULTS.model */
  model: text(100).optional().default(""),
  baseUrl: baseUrl.optional().default(""),
  /** words that hand the ticket to a person before the model is asked (issue 11 item 2) */
  handoverKeywords: handoverKeywords.optional().default(PROMPT_DEFAULTS.handoverKeywords),
  /** tokens this prompt may use per month; past it, the prompt hands over instead of answering; 0 = no cap */
  monthlyTokenCap: optionalNum(monthlyTokenCap.default(PROMPT_DEFAULTS.monthlyTokenCap)),
};

/** POST /prompt. Unknown fields (companyId, id ...) are dropped. */
export const promptSchema = z.object(promptFields);
export type PromptInput = z.infer<typeof promptSchema>;

/**
 * PUT /prompt/{id}: any subset, no defaults. An absent or empty `apiKey`/`voiceKey`, or the masked value the server
 * answered, keeps the stored secret.
 */
export const promptUpdateSchema = z.object({
  ...promptFields,
  apiKey: text(500),
  voiceKey: text(500),
  voiceRegion: text(100),
  voice: z.enum(PROMPT_VOICES),
  maxTokens: optionalNum(maxTokens.optional()),
  temperature: optionalNum(temperature.optional()),
  maxMessages: optionalNum(maxMessages.optional()),
  model: text(100),
  baseUrl,
  handoverKeywords,
  monthlyTokenCap: optionalNum(monthlyTokenCap.optional()),
}).partial();
export type PromptUpdateInput = z.infer<typeof promptUpdateSchema>;

/** How a secret is shown after saving: never in full; the last 4 characters only when the secret is long enough. */
export const maskSecret = (secret: string): string => {
  if (!secret) return "";
  return secret.length >= 16 ? `${"•".repeat(8)}${secret.slice(-4)}` : "•".repeat(8);
};
export const isMaskedSecret = (value: string) => value.startsWith("••••••••");
