import { describe, expect, it } from "vitest";
import { pacingDelaySeconds } from "./campaign-ports";

describe("campaign pacing", () => {
  it("waits messageInterval between messages and greaterInterval after every longerIntervalAfter messages", () => {
    const s = { messageInterval: 5, longerIntervalAfter: 3, greaterInterval: 60 };
    expect([1, 2, 3, 4, 5, 6].map((n) => pacingDelaySeconds(s, n))).toEqual([5, 5, 60, 5, 5, 60]);
    expect(pacingDelaySeconds({ ...s, longerIntervalAfter: 0 }, 3)).toBe(5);
  });
});
