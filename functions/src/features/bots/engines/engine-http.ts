import { BotTransientError } from "../bot-engine.port";

/**
 * One HTTP call of a bot engine to its outside service (Typebot, n8n or a webhook, DialogFlow). Classifies what
 * went wrong the way the runner needs it: a retry may help (network error, timeout or abort, 408, 425, 429, 5xx)
 * → BotTransientError; anything else (4xx, an answer that is not JSON) → a plain Error whose message says why,
 * for the internal note of the handover.
 */
export type EngineFetch = typeof fetch;

export type EngineHttpAnswer = { status: number; json: unknown; text: string };

const RETRYABLE = new Set([408, 425, 429]);
const isRetryableStatus = (status: number) => status >= 500 || RETRYABLE.has(status);

export const describeUrl = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "an invalid URL";
  }
};

export const engineRequest = async (
  fetchFn: EngineFetch,
  service: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; signal: AbortSignal },
  accept: { notFound?: "return" } = {},
): Promise<EngineHttpAnswer> => {
  let res: Response;
  try {
    res = await fetchFn(url, { method: init.method ?? "POST", headers: init.headers, body: init.body, signal: init.signal, redirect: "manual" });
  } catch (e) {
    const refused = e instanceof Error && e.name === "PrivateUrlError";
    // the guard's refusal is final (the address will not change on a retry), and says why
    if (refused) throw new Error(`${service}: ${describeUrl(url)} is not an allowed address (outbound guard)`, { cause: e });
    const reason = init.signal.aborted ? "no answer in time" : "connection failed";
    throw new BotTransientError(`${service} unreachable at ${describeUrl(url)}: ${reason}`, { cause: e });
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw new BotTransientError(`${service} answer cut off at ${describeUrl(url)}`, { cause: e });
  }
  if (res.status === 404 && accept.notFound === "return") return { status: 404, json: safeJson(text), text };
  if (isRetryableStatus(res.status)) throw new BotTransientError(`${service} answered ${res.status} at ${describeUrl(url)}`);
  // the status only: the body is the outside service's words and the reason lands in an internal note (docs/adr/0062)
  if (res.status >= 300) throw new Error(`${service} refused the call (${res.status}) at ${describeUrl(url)}`);
  return { status: res.status, json: safeJson(text), text };
};

const safeJson = (text: string): unknown => {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
};
/** marks an answer whose body was not JSON (undefined means an empty body) */
export const NOT_JSON = Symbol("not json");

/** Plain text of what the customer wrote: an audio's transcript when there is one, else the body. */
export const customerText = (message: { body: string; transcript?: string }) => (message.transcript?.trim() || message.body?.trim() || "").normalize("NFC");

/** Keywords compare without case, accents or surrounding spaces ("Sair", "sair ", "SAÍR" all match "sair"). */
export const sameKeyword = (text: string, keyword: string) => {
  const fold = (s: string) => s.normalize("NFD").replace(/\p{Diacritic}/gu, "").trim().toLowerCase();
  return keyword.trim() !== "" && fold(text) === fold(keyword);
};
