import { describe, expect, it } from "vitest";
import { brazilHolidays } from "./brazil-holidays";
import { addBusinessMs, businessMsBetween, type BusinessCalendar, type HoursEntry } from "./business-time";

const H = 3_600_000;
const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday"];
const hours: HoursEntry[] = [
  ...weekdays.map((weekdayEn) => ({ weekdayEn, startTime: "08:00", endTime: "12:00", startTimeB: "13:00", endTimeB: "18:00" })),
  { weekdayEn: "saturday", startTime: "08:00", endTime: "12:00" },
  { weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
];
const holidays = new Set([...brazilHolidays(2026), ...brazilHolidays(2027)].map((h) => h.date).concat(["2026-03-19"])); // + a company holiday
const sp: BusinessCalendar = { timeZone: "America/Sao_Paulo", hours, holidays };
// São Paulo is UTC-3 all year (no DST since 2019): 09:00 local = 12:00Z
const at = (local: string) => new Date(`${local}:00-03:00`);

describe("business time", () => {
  it("counts only working hours inside one day, lunch excluded", () => {
    expect(businessMsBetween(at("2026-03-10T09:00"), at("2026-03-10T15:00"), sp)).toBe(5 * H); // 9-12 + 13-15
  });

  it("skips nights and the weekend", () => {
    // Friday 17:00 → Monday 09:00: 1 h Friday + 4 h Saturday morning + 1 h Monday
    expect(businessMsBetween(at("2026-03-13T17:00"), at("2026-03-16T09:00"), sp)).toBe(6 * H);
    expect(addBusinessMs(at("2026-03-13T17:00"), 6 * H, sp)?.toISOString()).toBe(at("2026-03-16T09:00").toISOString());
  });

  it("skips Carnival (Monday and Tuesday, computed from Easter)", () => {
    // Saturday 2026-02-14 11:00 → the next 2 business hours: 1 h Saturday, then Wednesday 2026-02-18 08:00-09:00
    expect(addBusinessMs(at("2026-02-14T11:00"), 2 * H, sp)?.toISOString()).toBe(at("2026-02-18T09:00").toISOString());
    expect(businessMsBetween(at("2026-02-13T18:00"), at("2026-02-18T08:00"), sp)).toBe(4 * H);
  });

  it("skips the company's own holiday", () => {
    // Wednesday 2026-03-18 17:00 + 2 h: 1 h that day, Thursday 19th is the company's holiday, Friday 08:00-09:00
    expect(addBusinessMs(at("2026-03-18T17:00"), 2 * H, sp)?.toISOString()).toBe(at("2026-03-20T09:00").toISOString());
  });

  it("starting outside hours waits for the next opening", () => {
    expect(addBusinessMs(at("2026-03-10T22:30"), 30 * 60_000, sp)?.toISOString()).toBe(at("2026-03-11T08:30").toISOString());
    expect(businessMsBetween(at("2026-03-10T19:00"), at("2026-03-11T07:00"), sp)).toBe(0);
  });

  it("no schedule means around the clock, minus holidays", () => {
    const open: BusinessCalendar = { timeZone: "America/Sao_Paulo", hours: [], holidays: new Set() };
    expect(businessMsBetween(at("2026-03-10T22:00"), at("2026-03-11T02:00"), open)).toBe(4 * H);
    const withHoliday: BusinessCalendar = { ...open, holidays: new Set(["2026-12-25"]) };
    expect(businessMsBetween(at("2026-12-24T20:00"), at("2026-12-26T02:00"), withHoliday)).toBe(6 * H);
  });

  it("follows a zone with daylight saving time (New York, 2026-03-08 springs forward)", () => {
    const ny: BusinessCalendar = { timeZone: "America/New_York", hours: [], holidays: new Set(["2026-03-07"]) };
    // Saturday the 7th is a holiday: from Friday 23:00 EST to Sunday 03:00 EDT only Friday's last hour and Sunday 00:00-03:00 (2 real hours: 02:00-03:00 does not exist) count
    expect(businessMsBetween(new Date("2026-03-07T04:00:00Z"), new Date("2026-03-08T07:00:00Z"), ny)).toBe(3 * H);
  });

  it("a calendar closed every day has no due date", () => {
    const closed: BusinessCalendar = { timeZone: "America/Sao_Paulo", hours: [{ weekdayEn: "monday", startTime: "00:00", endTime: "00:00" }], holidays: new Set() };
    expect(addBusinessMs(at("2026-03-10T09:00"), H, closed)).toBeNull();
  });
});
