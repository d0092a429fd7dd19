import type { Context } from "hono";
import { ZodError } from "zod";
import type { ErrorBody } from "@atende/shared/errors/error-codes";
import { AppError } from "../errors";
import type { Logger } from "../logger";

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);
const DATABASE_BUSY = new Set(["ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded", "InternalServerError", "ServiceUnavailable", "TimeoutError"]);
const describe = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));
/**
 * The database out of reach (DynamoDB Local restarting, a network error its retries did not get over) or refusing
 * for now (throttling, its own 5xx): the request may succeed in a moment, so 503, not a 500 that looks like a bug.
 */
export const isDatabaseUnavailable = (err: unknown): boolean => {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code ?? (err.cause as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
  return DATABASE_BUSY.has(err.name) && "$metadata" in err;
};

/**
 * The one error-to-HTTP mapper: AppError -> its status and code; ZodError -> 400 ERR_VALIDATION with issues;
 * anything else -> 500 ERR_INTERNAL with the request id and no internals. Every 5xx answered is logged as an error
 * (a catalogue 5xx too: an AppError("ERR_INTERNAL") or a provider's 502), with the request id it answers.
 */
export const toErrorResponse = (err: unknown, requestId: string, logger: Logger): { status: number; body: ErrorBody } => {
  if (err instanceof AppError) {
    const body: ErrorBody = { error: err.code };
    if (err.data !== undefined) body.data = err.data;
    if (err.status >= 500) {
      logger.error("server error answered", { requestId, status: err.status, code: err.code, err: err.stack ?? err.message });
      if (err.code === "ERR_INTERNAL") body.requestId = requestId;
    }
    return { status: err.status, body };
  }
  if (err instanceof ZodError) {
    return {
      status: 400,
      body: {
        error: "ERR_VALIDATION",
        issues: err.issues.map((i) => ({ path: i.path.filter((p): p is string | number => typeof p !== "symbol"), message: i.message })),
      },
    };
  }
  if (err instanceof SyntaxError) return { status: 400, body: { error: "ERR_VALIDATION" } };
  if (isDatabaseUnavailable(err)) {
    logger.warn("database unavailable", { requestId, err: describe(err) });
    return { status: 503, body: { error: "ERR_SERVICE_UNAVAILABLE", requestId } };
  }
  logger.error("unhandled error", { requestId, err: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  return { status: 500, body: { error: "ERR_INTERNAL", requestId } };
};

export const sendError = (c: Context, err: unknown, logger: Logger) => {
  const requestId = (c.get("requestId" as never) as string | undefined) ?? "unknown";
  const { status, body } = toErrorResponse(err, requestId, logger);
  // a limit's refusal says when to come back (attempt-limiter.ts: data.retryAfter, seconds)
  const retryAfter = status === 429 && err instanceof AppError ? (err.data as { retryAfter?: unknown } | undefined)?.retryAfter : undefined;
  if (typeof retryAfter === "number") c.header("Retry-After", String(retryAfter));
  if (status === 503) c.header("retry-after", "5");
  return c.json(body, status as 400);
};
