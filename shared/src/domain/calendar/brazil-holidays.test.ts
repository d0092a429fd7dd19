import { describe, expect, it } from "vitest";
import { brazilHolidays, easterSunday } from "./brazil-holidays";

describe("Brazil's holidays", () => {
  it("computes Easter for known years", () => {
    expect(easterSunday(2024)).toEqual({ month: 3, day: 31 });
    expect(easterSunday(2025)).toEqual({ month: 4, day: 20 });
    expect(easterSunday(2026)).toEqual({ month: 4, day: 5 });
    expect(easterSunday(2027)).toEqual({ month: 3, day: 28 });
    expect(easterSunday(2038)).toEqual({ month: 4, day: 25 });
  });

  it("places Carnival, Good Friday and Corpus Christi from Easter", () => {
    const dates = (y: number) => Object.fromEntries(brazilHolidays(y).map((h) => [h.name, h.date]));
    expect(dates(2026)).toMatchObject({
      "Carnaval (segunda-feira)": "2026-02-16",
      "Carnaval (terça-feira)": "2026-02-17",
      "Sexta-feira Santa": "2026-04-03",
      "Corpus Christi": "2026-06-04",
    });
    expect(dates(2025)).toMatchObject({ "Carnaval (terça-feira)": "2025-03-04", "Sexta-feira Santa": "2025-04-18", "Corpus Christi": "2025-06-19" });
  });

  it("has the fixed national holidays, Consciência Negra from 2024 on", () => {
    const list = brazilHolidays(2026).map((h) => h.date);
    for (const d of ["2026-01-01", "2026-04-21", "2026-05-01", "2026-09-07", "2026-10-12", "2026-11-02", "2026-11-15", "2026-11-20", "2026-12-25"]) expect(list).toContain(d);
    expect(brazilHolidays(2023).map((h) => h.date)).not.toContain("2023-11-20");
    expect(list).toEqual([...list].sort());
  });
});
