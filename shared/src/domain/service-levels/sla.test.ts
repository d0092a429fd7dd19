import { describe, expect, it } from "vitest";
import type { BusinessCalendar } from "../calendar/business-time";
import { slaClock } from "./sla";

const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday"].map((weekdayEn) => ({ weekdayEn, startTime: "09:00", endTime: "18:00" }));
const cal: BusinessCalendar = { timeZone: "America/Sao_Paulo", hours: weekdays, holidays: new Set() };
const at = (local: string) => new Date(`${local}:00-03:00`);

describe("SLA clock", () => {
  it("ok, then amber at 80 %, then breached, in business time", () => {
    const since = at("2026-03-13T17:00"); // Friday
    expect(slaClock({ since, now: at("2026-03-13T17:30"), targetMinutes: 120, calendar: cal }).state).toBe("ok");
    // 1 h Friday + 36 min Monday = 96 min = 80 %
    const amber = slaClock({ since, now: at("2026-03-16T09:36"), targetMinutes: 120, calendar: cal });
    expect(amber.state).toBe("warning");
    expect(amber.leftMs).toBe(24 * 60_000);
    expect(amber.dueAt?.toISOString()).toBe(at("2026-03-16T10:00").toISOString());
    expect(slaClock({ since, now: at("2026-03-16T10:00"), targetMinutes: 120, calendar: cal }).state).toBe("breached");
  });

  it("time waiting on the customer does not count", () => {
    const c = slaClock({ since: at("2026-03-10T09:00"), now: at("2026-03-10T12:00"), targetMinutes: 120, pausedMs: 90 * 60_000, calendar: cal });
    expect(c.elapsedMs).toBe(90 * 60_000);
    expect(c.state).toBe("ok");
    expect(c.warnAt?.toISOString()).toBe(at("2026-03-10T12:06").toISOString());
  });
});
