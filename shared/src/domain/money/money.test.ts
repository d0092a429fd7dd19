import { describe, expect, it } from "vitest";
import { MONEY_MAX, moneySchema } from "./money";

describe("moneySchema", () => {
  it("accepts 0 to R$ 1,000,000.00 with at most two decimals, as a number or text", () => {
    for (const v of [0, 0.01, 0.1, 49.9, 149.99, 999_999.99, MONEY_MAX, "49.90", "10"]) expect(moneySchema.safeParse(v).success, String(v)).toBe(true);
    expect(moneySchema.parse("49.90")).toBe(49.9);
  });
  it("refuses negatives, over the maximum, 2^53, infinity, NaN and a third decimal", () => {
    for (const v of [-0.01, MONEY_MAX + 0.01, 2 ** 53, Infinity, NaN, 10.005, 0.1 + 0.2, 1e-7, "abc", "1,50"]) expect(moneySchema.safeParse(v).success, String(v)).toBe(false);
  });
});
