import { realtimePayloadProblem } from "@atende/shared/contracts/realtime-payloads";
import type { SocketSender } from "../platform/realtime/sender.port";

/**
 * Every realtime frame a test sends, checked against the payload table (shared/src/contracts/realtime-payloads.ts,
 * ADR 0068): createTestApp wraps its sender with this, and the int project's setup file
 * (functions/src/testing/realtime-payloads.setup.ts) fails the test file if any frame did not match.
 */
export const realtimePayloadViolations: string[] = [];

/** The event of a Socket.IO event name (socket-io.protocol.ts `socketIoEventNames`, read backwards). */
export const eventOfSocketIoName = (name: string): string | null => {
  if (name === "company-announcement") return "announcement";
  const m = /^company-?\d+-([A-Za-z]+)(?:-(?:user-)?\d+)?$/.exec(name);
  if (!m) return null;
  return m[1] === "quickemessage" ? "quickmessage" : m[1]!;
};

/** The realtime event and payload a frame carries, of either protocol; null for protocol packets (ping, connect, ready). */
export const decodeFrame = (frame: unknown): { event: string; data: unknown } | null => {
  if (typeof frame !== "string") {
    const f = frame as { event?: string; data?: unknown };
    return typeof f?.event === "string" ? { event: f.event, data: f.data } : null;
  }
  const m = /^42(?:\/[^,[]*,)?(\[.*)$/s.exec(frame);
  if (!m) return null;
  const [name, data] = JSON.parse(m[1]!) as [string, unknown];
  if (name === "ready") return null;
  return { event: eventOfSocketIoName(name) ?? name, data };
};

export const checkFrame = (frame: unknown): string | null => {
  const decoded = decodeFrame(frame);
  return decoded ? realtimePayloadProblem(decoded.event, decoded.data) : null;
};

export const createCheckedSender = (inner: SocketSender): SocketSender => ({
  async post(connectionId, frame) {
    const problem = checkFrame(frame);
    if (problem) realtimePayloadViolations.push(problem);
    return inner.post(connectionId, frame);
  },
  disconnect: (connectionId) => inner.disconnect(connectionId),
});
