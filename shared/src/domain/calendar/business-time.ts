/**
 * Business time on a company's calendar (issue 13, SLAs): working-hour ranges per weekday in the company's time
 * zone, minus holidays (Brazil's national ones plus the company's own dates). Used to count how much of a
 * target has elapsed and when a target falls due; all instants are real Dates, all calendar reasoning is local.
 */
export type HoursEntry = { weekdayEn: string; startTime: string; endTime: string; startTimeB?: string; endTimeB?: string };
export type BusinessCalendar = {
  timeZone: string;
  /** no entries: open around the clock (the same rule as out-of-hours automation) */
  hours: HoursEntry[];
  /** local dates "YYYY-MM-DD" on which nothing counts */
  holidays: ReadonlySet<string>;
};

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (timeZone: string) => {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formatters.set(timeZone, f);
  }
  return f;
};

/** The wall clock of an instant in a zone, as the UTC instant with the same fields (offset arithmetic). */
const wallClock = (t: number, timeZone: string) => {
  const p = Object.fromEntries(formatter(timeZone).formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
};

/** The instant at which the zone's clock shows `wall` (a UTC-encoded wall time); DST gaps resolve forward. */
const fromWall = (wall: number, timeZone: string) => {
  const first = wall - (wallClock(wall, timeZone) - wall);
  return wall - (wallClock(first, timeZone) - first);
};

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

const isoDay = (wallDay: number) => new Date(wallDay).toISOString().slice(0, 10);

/** The open ranges of one local day (UTC-encoded wall midnight) as real instants [start, end). */
const openRanges = (wallDay: number, cal: BusinessCalendar): [number, number][] => {
  if (cal.holidays.has(isoDay(wallDay))) return [];
  const weekday = WEEKDAYS[new Date(wallDay).getUTCDay()];
  return cal.hours
    .filter((h) => h.weekdayEn?.toLowerCase() === weekday)
    .flatMap((h) => [
      [h.startTime, h.endTime],
      [h.startTimeB, h.endTimeB],
    ])
    .filter((r): r is [string, string] => Boolean(r[0] && r[1]) && !(r[0] === "00:00" && r[1] === "00:00"))
    .map(([s, e]): [number, number] => [minutes(s), e === "00:00" ? 24 * 60 : minutes(e)])
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0])
    .map(([s, e]): [number, number] => [fromWall(wallDay + s * 60_000, cal.timeZone), fromWall(wallDay + e * 60_000, cal.timeZone)]);
};

const startOfWallDay = (t: number, timeZone: string) => {
  const wall = wallClock(t, timeZone);
  return wall - (wall % DAY_MS);
};

/** Business milliseconds between two instants (0 when `to` is not after `from`). */
export const businessMsBetween = (from: Date, to: Date, cal: BusinessCalendar): number => {
  const a = from.getTime();
  const b = to.getTime();
  if (b <= a) return 0;
  if (cal.hours.length === 0 && cal.holidays.size === 0) return b - a;
  let total = 0;
  for (let day = startOfWallDay(a, cal.timeZone) - DAY_MS; day <= startOfWallDay(b, cal.timeZone) + DAY_MS; day += DAY_MS) {
    const ranges: [number, number][] = cal.hours.length === 0 ? (cal.holidays.has(isoDay(day)) ? [] : [[fromWall(day, cal.timeZone), fromWall(day + DAY_MS, cal.timeZone)]]) : openRanges(day, cal);
    for (const [s, e] of ranges) total += Math.max(0, Math.min(e, b) - Math.max(s, a));
  }
  return total;
};

/**
 * The instant at which `ms` business milliseconds after `from` have elapsed; null when the calendar has no open
 * time in the next two years (a schedule closed every day).
 */
export const addBusinessMs = (from: Date, ms: number, cal: BusinessCalendar): Date | null => {
  const a = from.getTime();
  if (cal.hours.length === 0 && cal.holidays.size === 0) return new Date(a + ms);
  let left = ms;
  const first = startOfWallDay(a, cal.timeZone) - DAY_MS;
  for (let day = first; day < first + 732 * DAY_MS; day += DAY_MS) {
    const ranges: [number, number][] = cal.hours.length === 0 ? (cal.holidays.has(isoDay(day)) ? [] : [[fromWall(day, cal.timeZone), fromWall(day + DAY_MS, cal.timeZone)]]) : openRanges(day, cal);
    for (const [s, e] of ranges) {
      const start = Math.max(s, a);
      if (e <= start) continue;
      if (left <= e - start) return new Date(start + left);
      left -= e - start;
    }
  }
  return null;
};
