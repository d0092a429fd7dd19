import { describe, expect, it } from "vitest";
import { DISCONNECT, reconnectDecision } from "./reconnect-policy";

describe("reconnect policy", () => {
  it("logged out clears the session (new QR); nothing else does", () => {
    expect(reconnectDecision(DISCONNECT.loggedOut, 0)).toEqual({ action: "logout" });
    for (const code of [DISCONNECT.connectionClosed, DISCONNECT.timedOut, DISCONNECT.connectionReplaced, DISCONNECT.badSession, 503, undefined])
      expect(reconnectDecision(code, 0).action).toBe("reconnect");
  });

  it("restart required (after pairing) reconnects at once", () => {
    expect(reconnectDecision(DISCONNECT.restartRequired, 3)).toEqual({ action: "reconnect", delayMs: 0 });
  });

  it("backs off exponentially up to a minute, with bounded jitter", () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 10].map((n) => (reconnectDecision(DISCONNECT.connectionClosed, n, () => 0) as { delayMs: number }).delayMs);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect((reconnectDecision(DISCONNECT.connectionClosed, 10, () => 1) as { delayMs: number }).delayMs).toBe(72000);
  });
});
