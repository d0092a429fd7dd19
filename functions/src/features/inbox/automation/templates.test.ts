import { describe, expect, it } from "vitest";
import { isWithinHours, renderTemplate } from "./templates";

const week = (start: string, end: string) =>
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekdayEn) => ({ weekdayEn, startTime: start, endTime: end }));

describe("renderTemplate", () => {
  it("fills name, first name, greeting, hour and protocol in the company's time zone", () => {
    // 12:30 UTC = 09:30 in São Paulo
    const out = renderTemplate("{{greeting}} {{firstName}} ({{name}}) {{hour}} #{{protocol}}", {
      name: "Maria Silva",
      ticketId: 7,
      now: new Date("2026-03-02T12:30:00Z"),
      timeZone: "America/Sao_Paulo",
    });
    expect(out).toBe("Bom dia Maria (Maria Silva) 09:30 #202603027");
  });
});

describe("isWithinHours", () => {
  it("uses the company's clock, not the server's", () => {
    const hours = week("08:00", "18:00");
    // 20:30 UTC Monday = 17:30 in São Paulo: open there although past 18:00 UTC
    expect(isWithinHours(hours, new Date("2026-03-02T20:30:00Z"), "America/Sao_Paulo")).toBe(true);
    expect(isWithinHours(hours, new Date("2026-03-02T21:30:00Z"), "America/Sao_Paulo")).toBe(false);
  });
  it("treats 00:00-00:00 as closed and supports a second range", () => {
    const hours = week("00:00", "00:00").map((h) => ({ ...h, startTimeB: "14:00", endTimeB: "16:00" }));
    expect(isWithinHours(hours, new Date("2026-03-02T13:00:00Z"), "America/Sao_Paulo")).toBe(false);
    expect(isWithinHours(hours, new Date("2026-03-02T18:00:00Z"), "America/Sao_Paulo")).toBe(true);
  });
});
