import { describe, expect, it } from "vitest";
import { instantOf, zonedDay } from "./time-zone";

describe("instantOf", () => {
  it("reads the spec's wall-clock time in the company's zone, never the server's", () => {
    expect(instantOf("2026-12-01 09:00:00", "America/Sao_Paulo")).toBe("2026-12-01T12:00:00.000Z");
    expect(instantOf("2026-12-01T09:00", "America/Manaus")).toBe("2026-12-01T13:00:00.000Z");
    expect(instantOf("2026-12-01 09:00:00", "UTC")).toBe("2026-12-01T09:00:00.000Z");
  });

  it("takes an ISO instant with its offset as it is", () => {
    expect(instantOf("2026-12-01T09:00:00-03:00", "Asia/Tokyo")).toBe("2026-12-01T12:00:00.000Z");
    expect(instantOf("2026-12-01T12:00:00.000Z", "America/Sao_Paulo")).toBe("2026-12-01T12:00:00.000Z");
  });

  it("settles the days a zone changes its offset", () => {
    // New York moves from UTC-5 to UTC-4 on 2026-03-08 at 02:00
    expect(instantOf("2026-03-08 01:30:00", "America/New_York")).toBe("2026-03-08T06:30:00.000Z");
    expect(instantOf("2026-03-08 12:00:00", "America/New_York")).toBe("2026-03-08T16:00:00.000Z");
    expect(zonedDay("2026-03-08T16:00:00.000Z", "America/New_York")).toBe("2026-03-08");
  });
});
