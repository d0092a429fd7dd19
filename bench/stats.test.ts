import { describe, expect, it } from "vitest";
import { percentile } from "./stats";

describe("percentile (nearest rank)", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100, shuffled below
  const shuffled = [...hundred].sort((a, b) => ((a * 37) % 101) - ((b * 37) % 101));

  it("p99 of 100 values is the 99th smallest, not the largest", () => {
    expect(percentile(shuffled, 99)).toBe(99);
    expect(percentile(shuffled, 100)).toBe(100);
  });

  it("p50 of 100 values is the 50th smallest; of 5, the 3rd", () => {
    expect(percentile(shuffled, 50)).toBe(50);
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
  });

  it("p99 of 500 values is the 495th smallest", () => {
    expect(percentile(Array.from({ length: 500 }, (_, i) => 500 - i), 99)).toBe(495);
  });

  it("rounds to the places asked, and has no value for no values", () => {
    expect(percentile([1.26, 2.5], 50)).toBe(1.3);
    expect(percentile([1.26, 2.5], 50, 0)).toBe(1);
    expect(percentile([], 99)).toBeNull();
  });
});
