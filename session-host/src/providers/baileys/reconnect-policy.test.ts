import { describe, expect, it } from "vitest";
import { DISCONNECT, MAX_BAD_SESSION, MAX_VERSION_REFUSALS, reconnectDecision } from "./reconnect-policy";

describe("reconnect policy (ADR 0014)", () => {
  it("logged out clears the session and offers a new QR; multidevice mismatch clears it and waits", () => {
    expect(reconnectDecision(DISCONNECT.loggedOut, 0)).toEqual({ action: "logout", reason: "loggedOut", newQr: true });
    expect(reconnectDecision(DISCONNECT.multideviceMismatch, 0)).toEqual({ action: "logout", reason: "multideviceMismatch", newQr: false });
  });

  it("banned/forbidden (403) and replaced (440) stop without reconnecting, keeping the auth", () => {
    expect(reconnectDecision(DISCONNECT.forbidden, 0)).toEqual({ action: "stop", reason: "forbidden" });
    expect(reconnectDecision(DISCONNECT.connectionReplaced, 0)).toEqual({ action: "stop", reason: "connectionReplaced" });
  });

  it("a refused client version (405) fetches the current version and retries a few times, then stops", () => {
    for (let n = 1; n <= MAX_VERSION_REFUSALS; n++) expect(reconnectDecision(DISCONNECT.methodNotAllowed, n - 1, () => 0, n).action).toBe("refreshVersion");
    expect(reconnectDecision(DISCONNECT.methodNotAllowed, 3, () => 0, MAX_VERSION_REFUSALS + 1)).toEqual({ action: "stop", reason: "methodNotAllowed" });
  });

  it("a bad session (500) reconnects with backoff however often it repeats, never clearing the auth; from the third it alerts", () => {
    expect(reconnectDecision(DISCONNECT.badSession, 0, () => 0, 1)).toEqual({ action: "reconnect", delayMs: 1000, reason: "badSession" });
    expect(reconnectDecision(DISCONNECT.badSession, 2, () => 0, MAX_BAD_SESSION)).toEqual({ action: "reconnect", delayMs: 4000, reason: "badSession", alert: true });
    expect(reconnectDecision(DISCONNECT.badSession, 9, () => 0, 10)).toEqual({ action: "reconnect", delayMs: 60000, reason: "badSession", alert: true });
  });

  it("transient closes reconnect (408, 428, 503, unknown)", () => {
    for (const code of [DISCONNECT.connectionClosed, DISCONNECT.timedOut, DISCONNECT.unavailableService, 999, undefined])
      expect(reconnectDecision(code, 0).action).toBe("reconnect");
    expect(reconnectDecision(undefined, 0).reason).toBe("unknown");
  });

  it("restart required (after pairing) reconnects at once", () => {
    expect(reconnectDecision(DISCONNECT.restartRequired, 3)).toEqual({ action: "reconnect", delayMs: 0, reason: "restartRequired" });
  });

  it("backs off exponentially up to a minute, with bounded jitter", () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 10].map((n) => (reconnectDecision(DISCONNECT.connectionClosed, n, () => 0) as { delayMs: number }).delayMs);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect((reconnectDecision(DISCONNECT.connectionClosed, 10, () => 1) as { delayMs: number }).delayMs).toBe(72000);
  });
});
