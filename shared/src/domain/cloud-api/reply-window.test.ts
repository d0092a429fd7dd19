import { describe, expect, it } from "vitest";
import { canSendFreeForm, formatRemaining, replyWindow } from "./reply-window";

const now = new Date("2026-11-24T12:00:00.000Z");

describe("the Cloud API customer service window", () => {
  it("is open for 24 hours after the customer's last message, amber in the last hour", () => {
    const w = replyWindow("2026-11-24T11:00:00.000Z", now);
    expect(w).toEqual({ kind: "open", closesAt: "2026-11-25T11:00:00.000Z", remainingMs: 23 * 3600_000, closingSoon: false });
    const late = replyWindow("2026-11-23T12:30:00.000Z", now);
    expect(late).toMatchObject({ kind: "open", remainingMs: 30 * 60_000, closingSoon: true });
    expect(canSendFreeForm(late)).toBe(true);
  });

  it("closes exactly 24 hours after the last message, and is closed when the customer never wrote", () => {
    expect(replyWindow("2026-11-23T12:00:00.000Z", now)).toEqual({ kind: "closed", closedAt: "2026-11-24T12:00:00.000Z" });
    expect(replyWindow(null, now)).toEqual({ kind: "closed", closedAt: null });
    expect(replyWindow("not a date", now)).toEqual({ kind: "closed", closedAt: null });
    expect(canSendFreeForm(replyWindow(null, now))).toBe(false);
  });

  it("takes epoch milliseconds and Dates too, and a channel without a window never closes", () => {
    expect(replyWindow(now.getTime() - 1000, now)).toMatchObject({ kind: "open", remainingMs: 24 * 3600_000 - 1000 });
    expect(replyWindow(new Date(now.getTime() - 25 * 3600_000), now).kind).toBe("closed");
    expect(replyWindow(null, now, null)).toEqual({ kind: "none" });
    expect(canSendFreeForm({ kind: "none" })).toBe(true);
  });

  it("formats the countdown as hh:mm:ss", () => {
    expect(formatRemaining(23 * 3600_000 + 59 * 60_000 + 59_500)).toBe("23:59:59");
    expect(formatRemaining(-5)).toBe("00:00:00");
  });
});
