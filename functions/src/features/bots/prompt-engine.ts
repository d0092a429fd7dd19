import OpenAI, { APIConnectionError, APIError, toFile } from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { matchHandoverKeyword } from "@atende/shared/domain/bots/handover-keywords";
import { BotTransientError, type BotEngine, type BotOutMessage, type BotTurnInput, type BotTurnResult } from "./bot-engine.port";
import type { AzureSpeech } from "./azure-speech.client";

/** What the prompt engine needs of a stored prompt, secrets opened (the resolver builds it). */
export type PromptBotConfig = {
  id: number;
  name: string;
  prompt: string;
  /** empty: DEFAULT_MODEL */
  model: string;
  /** empty: OpenAI's own endpoint */
  baseUrl: string;
  apiKey: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  handoverKeywords: readonly string[];
};

export const DEFAULT_MODEL = "gpt-4o-mini";
export const TRANSCRIPTION_MODEL = "whisper-1";
/** The one tool the model gets: the only way it hands a conversation over (never by parsing its text). */
export const HANDOVER_TOOL = "transferir_para_atendente";

const handoverTool: ChatCompletionTool = {
  type: "function",
  function: {
    name: HANDOVER_TOOL,
    description:
      "Transfere a conversa para um atendente humano. Use quando o cliente pedir uma pessoa, quando você não souber ou não puder resolver, ou quando o assunto exigir um humano.",
    parameters: {
      type: "object",
      properties: {
        motivo: { type: "string", description: "por que a conversa vai para um humano, em uma frase" },
        resumo: { type: "string", description: "resumo da conversa até aqui para o atendente, em até 3 frases" },
      },
      required: ["motivo", "resumo"],
    },
  },
};

/** The prompt's text as the system message; {{name}}, {{firstName}}, {{company}} and {{queue}} are filled in. */
export const systemMessage = (cfg: Pick<PromptBotConfig, "prompt">, input: Pick<BotTurnInput, "contact" | "company" | "queue">) => {
  const vars: Record<string, string> = {
    name: input.contact.name,
    firstName: input.contact.name.split(/\s+/)[0] ?? "",
    company: input.company.name,
    companyName: input.company.name,
    queue: input.queue?.name ?? "",
  };
  const text = cfg.prompt.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, k: string) => vars[k] ?? all);
  return [
    text,
    "",
    `Contexto: você atende pela empresa "${input.company.name}"${input.queue ? `, setor "${input.queue.name}"` : ""}. O cliente se chama "${input.contact.name}".`,
    `Se o cliente pedir uma pessoa ou você não puder ajudar, chame a função ${HANDOVER_TOOL}.`,
  ].join("\n");
};

/** The newest `maxMessages` of the history, oldest first, as chat messages (our messages are the assistant's). */
export const chatHistory = (history: BotTurnInput["history"], maxMessages: number): ChatCompletionMessageParam[] =>
  history
    .slice(-Math.max(1, maxMessages))
    .map((m) => ({ role: m.fromMe ? ("assistant" as const) : ("user" as const), content: m.body.trim() || `[${m.mediaType ?? "mídia"}]` }));

/**
 * Errors a retry may cure: connection trouble, timeouts, 408/409/429 and 5xx. The reason lands in the ticket's
 * internal note, so it says only what we know (the status, or that the address was refused): never the answer's
 * body, which the endpoint's owner writes (docs/adr/0062).
 */
const wrap = (err: unknown): unknown => {
  if (err instanceof APIConnectionError) {
    const refused = refusal(err);
    return refused ? new Error("model: the address is not allowed (outbound guard)", { cause: err }) : new BotTransientError("model: unreachable", { cause: err });
  }
  if (err instanceof APIError && err.status !== undefined && (err.status === 408 || err.status === 409 || err.status === 429 || err.status >= 500))
    return new BotTransientError(`model answered ${err.status}`, { cause: err });
  if (err instanceof APIError) return new Error(`model answered ${err.status ?? "?"}`, { cause: err });
  return err;
};
/** The outbound guard's refusal behind a connection error, if that was the cause. */
const refusal = (err: unknown) => {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if ((e as Error).name === "PrivateUrlError") return e;
  return undefined;
};

const parseArgs = (raw: string | undefined): Record<string, unknown> => {
  try {
    const v = JSON.parse(raw ?? "{}") as unknown;
    return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * The AI prompt bot (issue 11 items 1-3) through the `openai` package, against any OpenAI-compatible endpoint:
 * transcribes a customer's audio first, then one chat completion with the prompt as the system message, the newest
 * `maxMessages` of the ticket and the handover tool; answers in text, and also as a voice note when the prompt has
 * a voice. The SDK's own retries are off: the runner owns the timeout and the one retry.
 */
export const createPromptEngine = (deps: { speech: AzureSpeech; fetch?: typeof fetch; openAi?: (cfg: PromptBotConfig) => OpenAI }): BotEngine<PromptBotConfig> => {
  // the guarded outbound fetch (docs/adr/0062): the prompt's baseUrl is an address a company typed
  const clientOf =
    deps.openAi ??
    ((cfg: PromptBotConfig) => new OpenAI({ apiKey: cfg.apiKey, baseURL: cfg.baseUrl || undefined, maxRetries: 0, timeout: 60_000, ...(deps.fetch ? { fetch: deps.fetch } : {}) }));

  const transcribe = async (client: OpenAI, input: BotTurnInput): Promise<string | undefined> => {
    const m = input.message;
    if (m.mediaType !== "audio" || m.transcript || !input.readMedia) return undefined;
    const bytes = await input.readMedia();
    const file = await toFile(bytes, "audio.ogg", { type: "audio/ogg" });
    const out = await client.audio.transcriptions.create({ file, model: TRANSCRIPTION_MODEL }, { signal: input.signal });
    return (typeof out === "string" ? out : out.text).trim();
  };

  return {
    kind: "prompt",
    handoverKeywords: (cfg) => cfg.handoverKeywords,

    async turn(cfg, input): Promise<BotTurnResult> {
      const client = clientOf(cfg);
      try {
        const transcript = await transcribe(client, input);
        const history = transcript
          ? input.history.map((h, i) => (i === input.history.length - 1 && !h.fromMe ? { ...h, body: transcript } : h))
          : input.history;
        // an audio asking for a person: the keywords apply to its transcript too, before the model
        const keyword = transcript ? matchHandoverKeyword(transcript, cfg.handoverKeywords) : null;
        if (keyword) return { messages: [], actions: [{ type: "handover", reason: `o cliente pediu um atendente ("${keyword}")` }], state: null, transcript };

        const completion = await client.chat.completions.create(
          {
            model: cfg.model || DEFAULT_MODEL,
            messages: [{ role: "system", content: systemMessage(cfg, input) }, ...chatHistory(history, cfg.maxMessages)],
            max_tokens: cfg.maxTokens,
            temperature: cfg.temperature,
            tools: [handoverTool],
            tool_choice: "auto",
          },
          { signal: input.signal },
        );
        const usage = { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 };
        const choice = completion.choices[0]?.message;
        const text = choice?.content?.trim() ?? "";
        const call = choice?.tool_calls?.find((c) => c.type === "function" && c.function.name === HANDOVER_TOOL);
        const messages: BotOutMessage[] = text ? [{ kind: "text", body: text }] : [];
        let voiceError: string | undefined;
        if (text && cfg.voice && cfg.voice !== "texto" && cfg.voiceKey && cfg.voiceRegion) {
          // the text answer goes out whatever happens to the speech service: a voice note is a bonus, not the answer
          try {
            const voice = await deps.speech.synthesize({ text, voice: cfg.voice, key: cfg.voiceKey, region: cfg.voiceRegion, signal: input.signal });
            messages.push({ kind: "voice", audio: voice.audio, mimetype: voice.mimetype });
          } catch (err) {
            if (input.signal.aborted) throw err;
            voiceError = String((err as Error).message ?? err).slice(0, 200);
          }
        }
        if (call && call.type === "function") {
          const args = parseArgs(call.function.arguments);
          return {
            messages,
            actions: [{ type: "handover", reason: String(args.motivo ?? "").slice(0, 500), note: String(args.resumo ?? "").slice(0, 2000) || undefined }],
            state: null,
            usage,
            ...(transcript ? { transcript } : {}),
          };
        }
        const state = { turns: Number(input.state?.turns ?? 0) + 1, ...(voiceError ? { voiceError } : {}) };
        return { messages, actions: [], state, usage, ...(transcript ? { transcript } : {}) };
      } catch (err) {
        throw wrap(err);
      }
    },

    async summarize(cfg, input) {
      const client = clientOf(cfg);
      try {
        const completion = await client.chat.completions.create(
          {
            model: cfg.model || DEFAULT_MODEL,
            messages: [
              { role: "system", content: "Resuma em até 3 frases, em português, a conversa a seguir para o atendente humano que vai assumir o atendimento." },
              ...chatHistory(input.history, cfg.maxMessages),
            ],
            max_tokens: 200,
            temperature: 0,
          },
          { signal: input.signal },
        );
        return {
          summary: completion.choices[0]?.message?.content?.trim() ?? "",
          usage: { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 },
        };
      } catch (err) {
        throw wrap(err);
      }
    },
  };
};
