import type { Context } from "hono";
import { ZodError } from "zod";
import type { ErrorBody } from "@atende/shared/errors/error-codes";
import { AppError } from "../errors";
import type { Logger } from "../logger";

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
  logger.error("unhandled error", { requestId, err: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  return { status: 500, body: { error: "ERR_INTERNAL", requestId } };
};

export const sendError = (c: Context, err: unknown, logger: Logger) => {
  const requestId = (c.get("requestId" as never) as string | undefined) ?? "unknown";
  const { status, body } = toErrorResponse(err, requestId, logger);
  return c.json(body, status as 400);
};
