import * as z from "zod";
import { brazilHolidays, type Holiday } from "../calendar/brazil-holidays";

/** A company's own holiday or closure (state, city, a day off): a local date on which no SLA time counts. */
export type CompanyHoliday = { id: number; companyId: number; date: string; name: string; createdAt: string; updatedAt: string };

const isRealDate = (d: string) => {
  const t = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
};

/** POST /holidays and PUT /holidays/{id}. */
export const holidaySchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD").refine(isRealDate, "YYYY-MM-DD"),
  name: z.string().trim().min(1, "Required").max(120),
});
export type HolidayInput = z.infer<typeof holidaySchema>;

/** GET /holidays?year=: the company's dates and Brazil's national ones for the year (movable ones computed). */
export type HolidaysResponse = { holidays: CompanyHoliday[]; national: Holiday[] };

/** Every date (national of the years around `now`, plus the company's) on which nothing counts. */
export const holidayDates = (companyDates: string[], years: number[]): Set<string> =>
  new Set([...years.flatMap((y) => brazilHolidays(y).map((h) => h.date)), ...companyDates]);
