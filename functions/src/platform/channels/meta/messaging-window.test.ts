import { describe, expect, it } from "vitest";
import { messagingWindow, sendTypeFields } from "./messaging-window";

const last = "2026-11-01T12:00:00.000Z";
const at = (hours: number) => new Date(new Date(last).getTime() + hours * 3600_000);

describe("Meta messaging window (Messenger / Instagram)", () => {
  it("answers freely within 24 hours of the customer's last message", () => {
    const w = messagingWindow(last, at(23.9));
    expect(w).toMatchObject({ state: "open", messagingType: "RESPONSE", closesAt: "2026-11-02T12:00:00.000Z" });
    expect(sendTypeFields(w)).toEqual({ messaging_type: "RESPONSE" });
  });
  it("from 24 hours to 7 days only with the HUMAN_AGENT tag", () => {
    for (const h of [24, 100, 167.9]) {
      const w = messagingWindow(last, at(h));
      expect(w.state).toBe("humanAgent");
      expect(sendTypeFields(w)).toEqual({ messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" });
    }
    expect(messagingWindow(last, at(30))).toMatchObject({ closesAt: "2026-11-08T12:00:00.000Z" });
  });
  it("closed after 7 days, and when the customer never wrote", () => {
    expect(messagingWindow(last, at(168))).toEqual({ state: "closed", error: "ERR_WINDOW_CLOSED" });
    expect(messagingWindow(null, at(1))).toEqual({ state: "closed", error: "ERR_WINDOW_CLOSED" });
    expect(sendTypeFields(messagingWindow(undefined, at(1)))).toBeNull();
  });
});
