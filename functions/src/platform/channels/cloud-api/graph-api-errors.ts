/**
 * Meta's Graph API errors as the Cloud API provider handles them. Answers to calls carry
 * `{ error: { message, type, code, error_data: { details }, fbtrace_id } }`; failed statuses in webhooks carry
 * `errors: [{ code, title, message, error_data: { details } }]`.
 *
 * - retry (with backoff, the request was refused so nothing was sent): 130429 (throughput reached),
 *   131056 (pair rate: too many messages to the same person), 80007 (WABA rate limit), 4 / 613 (API call limits).
 * - window: 131047 (more than 24 hours since the customer's last message: a template is needed).
 * - permanent: everything else, stored on the message with Meta's code and title (131026 undeliverable, ...).
 */
export class GraphApiError extends Error {
  constructor(
    readonly code: number,
    readonly title: string,
    readonly httpStatus: number,
    readonly details?: string,
  ) {
    super(`${code} ${title}`);
    this.name = "GraphApiError";
  }
}

export const RATE_LIMIT_CODES = new Set([130429, 131056, 80007, 4, 613]);
export const WINDOW_CLOSED_CODE = 131047;
export const UNDELIVERABLE_CODE = 131026;
export const PAIR_RATE_CODE = 131056;

export type ErrorClass = "retry" | "window" | "auth" | "permanent";
export const classifyGraphError = (code: number): ErrorClass => {
  if (RATE_LIMIT_CODES.has(code)) return "retry";
  if (code === WINDOW_CLOSED_CODE) return "window";
  if (code === 190 || code === 10 || code === 200) return "auth";
  return "permanent";
};

/** Meta's titles for the codes we name (used when an answer lacks one). */
const TITLES: Record<number, string> = {
  130429: "Rate limit hit",
  131056: "(Business Account, Consumer Account) pair rate limit hit",
  131047: "Re-engagement message",
  131026: "Message undeliverable",
  190: "Invalid OAuth access token",
};

/** The text stored on a failed message: Meta's code and title ("131047 Re-engagement message"). */
export const failureText = (code: number, title?: string) => `${code} ${title || TITLES[code] || "Error"}`.slice(0, 300);

/** Backoff before retry n (0-based): the pair rate needs at least 6 s; others double from 1 s. */
export const retryDelayMs = (code: number, attempt: number) => (code === PAIR_RATE_CODE ? 6_000 * (attempt + 1) : Math.min(1_000 * 2 ** attempt, 16_000));

/** Reads a Graph error answer (any shape) into a GraphApiError. */
export const graphErrorFrom = (httpStatus: number, body: unknown): GraphApiError => {
  const e = (body as { error?: { code?: unknown; message?: unknown; error_user_title?: unknown; error_data?: { details?: unknown } } } | null)?.error;
  const code = typeof e?.code === "number" ? e.code : Number(e?.code) || httpStatus;
  const title = typeof e?.error_user_title === "string" && e.error_user_title ? e.error_user_title : typeof e?.message === "string" ? e.message : TITLES[code] ?? `HTTP ${httpStatus}`;
  const details = typeof e?.error_data?.details === "string" ? e.error_data.details : undefined;
  return new GraphApiError(code, title, httpStatus, details);
};
