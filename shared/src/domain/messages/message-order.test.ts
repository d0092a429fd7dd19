import { describe, expect, it } from "vitest";
import { compareMessages, createMessageSequencer, messageOrderSuffix } from "./message-order";

describe("message order within a second (docs/adr/0066)", () => {
  it("the sequencer grows by one within a millisecond and follows the clock after it", () => {
    let now = 1_764_000_000_000;
    const s = createMessageSequencer(() => now);
    expect([s.next(), s.next(), s.next()]).toEqual([now, now + 1, now + 2]);
    now += 1000;
    expect(s.next()).toBe(now);
    // a clock that steps back never makes it go back
    now -= 5000;
    expect(s.next()).toBe(now + 5001);
  });

  it("sorts by time, then sequence, then id, as the conversation's sort key does", () => {
    const at = "2026-11-29T01:00:00.000Z";
    const list = [
      { id: "3AZ", createdAt: at, seq: 1_764_000_000_002 },
      { id: "3AA", createdAt: at, seq: 1_764_000_000_010 },
      { id: "OURS", createdAt: "2026-11-29T01:00:00.400Z" },
      { id: "3AM", createdAt: at, seq: 1_764_000_000_001 },
      { id: "OLD", createdAt: "2026-11-29T00:59:59.000Z" },
    ];
    expect([...list].sort(compareMessages).map((m) => m.id)).toEqual(["OLD", "3AM", "3AZ", "3AA", "OURS"]);
    // the key's suffix compares as the numbers do (fixed width)
    expect(messageOrderSuffix({ id: "X", seq: 9 }) < messageOrderSuffix({ id: "A", seq: 10 })).toBe(true);
    expect(messageOrderSuffix({ id: "X" })).toBe("X");
  });
});
