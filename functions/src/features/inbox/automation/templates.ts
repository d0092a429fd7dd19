import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";

/** The clock of a company: weekday (monday..sunday) and HH:mm in its own time zone, whatever the server's. */
export const localClock = (now: Date, timeZone: string | undefined) => {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: timeZone || DEFAULT_TIME_ZONE,
    weekday: "long",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return {
    weekday: get("weekday").toLowerCase(),
    time: `${get("hour")}:${get("minute")}`,
    hour: Number(get("hour")),
    date: `${get("year")}${get("month")}${get("day")}`,
  };
};

export const greetingFor = (hour: number) => (hour < 12 ? "Bom dia" : hour < 18 ? "Boa tarde" : "Boa noite");

/** Template variables of automatic messages (SERVER-RULES "Inbound message" 6). */
/** `{{protocol}}`: the cycle's stored protocol number (issue 13); tickets from before it fall back to date + ticket id. */
export const renderTemplate = (text: string, vars: { name: string; ticketId: number; now: Date; timeZone?: string; protocol?: string | null }) => {
  const clock = localClock(vars.now, vars.timeZone);
  const firstName = vars.name.trim().split(/\s+/)[0] ?? "";
  return text
    .replace(/\{\{\s*name\s*\}\}/gi, vars.name)
    .replace(/\{\{\s*firstName\s*\}\}/gi, firstName)
    .replace(/\{\{\s*greeting\s*\}\}/gi, greetingFor(clock.hour))
    .replace(/\{\{\s*protocol\s*\}\}/gi, vars.protocol || `${clock.date}${vars.ticketId}`)
    .replace(/\{\{\s*hour\s*\}\}/gi, clock.time);
};

export type HoursEntry = { weekdayEn: string; startTime: string; endTime: string; startTimeB?: string; endTimeB?: string };

/**
 * Within working hours? Each weekday may have several ranges (startTime-endTime, optional startTimeB-endTimeB).
 * A day whose ranges are all empty or 00:00-00:00 is closed. No schedule at all means always open.
 */
export const isWithinHours = (schedules: HoursEntry[] | undefined, now: Date, timeZone: string | undefined): boolean => {
  if (!schedules || schedules.length === 0) return true;
  const clock = localClock(now, timeZone);
  const today = schedules.filter((s) => s.weekdayEn?.toLowerCase() === clock.weekday);
  const ranges = today.flatMap((s) => [
    [s.startTime, s.endTime],
    [s.startTimeB, s.endTimeB],
  ]).filter((r): r is [string, string] => Boolean(r[0] && r[1]) && !(r[0] === "00:00" && r[1] === "00:00"));
  return ranges.some(([start, end]) => clock.time >= start && clock.time < (end === "00:00" ? "24:00" : end));
};
