import { ERROR_STATUS, type ErrorCode } from "@atende/shared/errors/error-codes";

/** The error services throw: a code from the catalogue, optional data for the client. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly data?: unknown,
    status?: number,
  ) {
    super(code);
    this.name = "AppError";
    this.status = status ?? ERROR_STATUS[code];
  }
}
