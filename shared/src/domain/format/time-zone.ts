/** Offset (ms) of a time zone from UTC at an instant: local wall clock minus UTC. */
export const zoneOffsetMs = (instant: Date, timeZone: string): number => {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
};

/** The instant a calendar day (yyyy-MM-dd) starts in the time zone. */
export const startOfZonedDay = (day: string, timeZone: string): Date => {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // two passes settle days where the offset changes (DST)
  let instant = guess - zoneOffsetMs(new Date(guess), timeZone);
  instant = guess - zoneOffsetMs(new Date(instant), timeZone);
  return new Date(instant);
};

/** The calendar day (yyyy-MM-dd) of an instant in the time zone. */
export const zonedDay = (instant: Date | string, timeZone: string): string => {
  const d = new Date(instant);
  return new Date(d.getTime() + zoneOffsetMs(d, timeZone)).toISOString().slice(0, 10);
};

export const addDays = (day: string, n: number): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** A wall-clock time without offset, as the spec's clients send it: `YYYY-MM-DD HH:mm:ss` (or with `T`, seconds optional). */
export const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant of a wall-clock time in a time zone (the company's): "2026-12-01 09:00:00" in America/Sao_Paulo is
 * 12:00Z. An ISO time with an offset is taken as it is. Two passes settle the hours where the offset changes.
 */
export const instantOf = (time: string, timeZone: string): string => {
  const m = WALL_TIME.exec(time);
  if (!m) return new Date(time).toISOString();
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  let instant = wall - zoneOffsetMs(new Date(wall), timeZone);
  instant = wall - zoneOffsetMs(new Date(instant), timeZone);
  return new Date(instant).toISOString();
};
