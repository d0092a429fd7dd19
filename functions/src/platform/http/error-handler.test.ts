import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import { toErrorResponse } from "./error-handler";

const recording = () => {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    debug: (msg, fields) => void lines.push({ level: "debug", msg, fields }),
    info: (msg, fields) => void lines.push({ level: "info", msg, fields }),
    warn: (msg, fields) => void lines.push({ level: "warn", msg, fields }),
    error: (msg, fields) => void lines.push({ level: "error", msg, fields }),
    child: () => logger,
  };
  return { logger, lines };
};

describe("every 5xx the API answers is logged (issue 27 finding 5)", () => {
  it("a catalogue 5xx (ERR_INTERNAL, a provider's 502) is logged with its request id; ERR_INTERNAL's body names it", () => {
    const { logger, lines } = recording();
    expect(toErrorResponse(new AppError("ERR_INTERNAL"), "req-1", logger)).toEqual({ status: 500, body: { error: "ERR_INTERNAL", requestId: "req-1" } });
    expect(toErrorResponse(new AppError("ERR_CLOUDAPI_CHECK_FAILED"), "req-2", logger)).toEqual({ status: 502, body: { error: "ERR_CLOUDAPI_CHECK_FAILED" } });
    expect(lines.map((l) => [l.level, l.fields?.requestId, l.fields?.status])).toEqual([
      ["error", "req-1", 500],
      ["error", "req-2", 502],
    ]);
  });

  it("an unexpected error is a logged 500; a 4xx is not logged", () => {
    const { logger, lines } = recording();
    expect(toErrorResponse(new Error("boom"), "req-3", logger)).toEqual({ status: 500, body: { error: "ERR_INTERNAL", requestId: "req-3" } });
    expect(toErrorResponse(new AppError("ERR_TICKET_BUSY"), "req-4", logger)).toEqual({ status: 409, body: { error: "ERR_TICKET_BUSY" } });
    expect(toErrorResponse(new AppError("ERR_NO_PERMISSION"), "req-5", logger).status).toBe(403);
    expect(lines.map((l) => [l.level, l.fields?.requestId])).toEqual([["error", "req-3"]]);
  });
});
