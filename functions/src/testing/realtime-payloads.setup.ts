import { afterAll, expect } from "vitest";
import { realtimePayloadViolations } from "./checked-sender";

/**
 * The int project's setup file: after each test file, every realtime frame its tests sent had the shape of its
 * event's row in shared/src/contracts/realtime-payloads.ts (ADR 0068). The frames are checked as they are sent
 * (createTestApp's sender); a mismatch names the event and the field.
 */
afterAll(() => {
  const seen = [...new Set(realtimePayloadViolations.splice(0))];
  expect(seen, "realtime payloads that do not match shared/src/contracts/realtime-payloads.ts").toEqual([]);
});
