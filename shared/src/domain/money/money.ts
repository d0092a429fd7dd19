import * as z from "zod";

/** The largest amount of money the platform accepts anywhere (plans, invoices, subscriptions): R$ 1,000,000.00. */
export const MONEY_MAX = 1_000_000;

/** True for a finite amount with at most two decimals (12, 12.5, 12.34; not 12.345 or 0.30000000000000004). */
export const hasAtMostTwoDecimals = (value: number): boolean => Number.isFinite(value) && /^\d+(\.\d{1,2})?$/.test(String(value));

/**
 * Money in reais, as a number or its text with a dot ("49.90"): from 0 to R$ 1,000,000.00, at most two decimals.
 * Anything else (negative, 2^53, 1e400, 1.005) is ERR_VALIDATION, never stored.
 */
export const moneySchema = z.coerce
  .number()
  .min(0)
  .max(MONEY_MAX)
  .refine(hasAtMostTwoDecimals, "At most two decimals");
