import OpenAI, { APIConnectionError, APIError, toFile } from "openai";
import { CopilotProviderError, CopilotUrlRefusedError, type CopilotProviderFactory } from "./copilot-provider.port";

/** The outbound guard's refusal behind a connection error, if that was the cause. */
const refused = (err: unknown) => {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if ((e as Error).name === "PrivateUrlError") return true;
  return false;
};

/** Our errors only: the provider's status (never its body, which the endpoint's owner writes: docs/adr/0062). */
const wrap = (err: unknown): unknown => {
  if (refused(err)) return new CopilotUrlRefusedError({ cause: err });
  if (err instanceof APIConnectionError) return new CopilotProviderError(0, { cause: err });
  if (err instanceof APIError) return new CopilotProviderError(err.status ?? 0, { cause: err });
  if ((err as Error)?.name === "AbortError" || (err as Error)?.name === "TimeoutError") return new CopilotProviderError(0, { cause: err });
  return err;
};

/**
 * The copilot's provider through the `openai` package (as the AI prompt bot, features/bots/prompt-engine.ts): one
 * client per call (the key and address are the company's), the SDK's retries off (the caller owns the 20 s timeout
 * through `signal`), its fetch the outbound guard's.
 */
export const createOpenAiCopilotProvider: CopilotProviderFactory = (deps) => {
  const clientOf = (t: { baseUrl: string; apiKey: string }) =>
    new OpenAI({ apiKey: t.apiKey || "none", baseURL: t.baseUrl || undefined, maxRetries: 0, timeout: 60_000, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  return {
    async chat(target, messages, opts) {
      try {
        const out = await clientOf(target).chat.completions.create(
          { model: target.model, messages, max_tokens: opts.maxTokens, ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}) },
          { signal: opts.signal },
        );
        return {
          text: out.choices[0]?.message?.content?.trim() ?? "",
          usage: { promptTokens: out.usage?.prompt_tokens ?? 0, completionTokens: out.usage?.completion_tokens ?? 0 },
        };
      } catch (err) {
        throw wrap(err);
      }
    },
    async transcribe(target, audio, opts) {
      try {
        const file = await toFile(audio.bytes, audio.filename, { type: audio.mimetype });
        const out = await clientOf(target).audio.transcriptions.create({ file, model: target.model }, { signal: opts.signal });
        return { text: (typeof out === "string" ? out : out.text).trim() };
      } catch (err) {
        throw wrap(err);
      }
    },
  };
};
