import type { CycleSla, SlaClockRecord, TicketCycle } from "../../contracts/http/tickets";
import type { CsatFigures, ReportSummary, SlaResult } from "../../contracts/http/reports";

/**
 * The report's metric definitions (docs/adr/0034-reports.md), used by the report, its exports and the dashboard so
 * their figures agree for the same period:
 * - wait (queued time): accepted − queued (the cycle's entry into the waiting list until an attendant took it);
 * - first response: the first message of an attendant (not a bot, not an automatic message) − queued;
 * - handling (support) time: finished − accepted;
 * - abandoned: closed without ever being accepted by an attendant (the customer left or the ticket was closed from
 *   the waiting list);
 * - averages count only the cycles where the interval exists.
 */
const ms = (a: string | null | undefined, b: string | null | undefined) => (a && b ? Date.parse(b) - Date.parse(a) : null);
const secs = (d: number | null) => (d === null ? null : Math.max(0, Math.round(d / 1000)));

export const waitMs = (c: TicketCycle) => ms(c.queuedAt, c.acceptedAt);
export const firstResponseMs = (c: TicketCycle) => ms(c.queuedAt, c.firstResponseAt ?? null);
export const handlingMs = (c: TicketCycle) => ms(c.acceptedAt, c.finishedAt);
export const isAbandoned = (c: TicketCycle) => c.status === "closed" && !c.acceptedAt;

export const cycleDurations = (c: TicketCycle) => ({
  waitSeconds: secs(waitMs(c)),
  firstResponseSeconds: secs(firstResponseMs(c)),
  handlingSeconds: secs(handlingMs(c)),
});

/** One SLA clock: breached if it ever breached, met if it was met in time, running while neither. */
export const clockResult = (clock: SlaClockRecord | null | undefined): SlaResult => {
  if (!clock) return null;
  if (clock.breachedAt) return "breached";
  if (clock.metAt) return "met";
  return "running";
};
/** The cycle's SLA: breached if any clock breached, met when every clock was met, running otherwise, null without a policy. */
export const slaResults = (sla: CycleSla | null | undefined) => {
  const firstResponse = clockResult(sla?.firstResponse);
  const nextResponse = clockResult(sla?.nextResponse);
  const resolution = clockResult(sla?.resolution);
  const all = [firstResponse, nextResponse, resolution].filter((r): r is Exclude<SlaResult, null> => r !== null);
  const overall: SlaResult = !all.length ? null : all.includes("breached") ? "breached" : all.every((r) => r === "met") ? "met" : "running";
  return { firstResponse, nextResponse, resolution, overall };
};

/** Minutes with one decimal, as the dashboard shows them. */
export const toMinutes = (milliseconds: number) => Math.round((milliseconds / 60_000) * 10) / 10;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const present = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);

/** The figures of a set of cycles (the report's summary and the dashboard's counters). */
export const summarizeCycles = (cycles: readonly TicketCycle[]): ReportSummary => {
  const sla = cycles.map((c) => slaResults(c.sla).overall);
  return {
    total: cycles.length,
    pending: cycles.filter((c) => c.status === "pending").length,
    open: cycles.filter((c) => c.status === "open").length,
    closed: cycles.filter((c) => c.status === "closed").length,
    abandoned: cycles.filter(isAbandoned).length,
    avgWaitTime: toMinutes(mean(present(cycles.map(waitMs)))),
    avgFirstResponseTime: toMinutes(mean(present(cycles.map(firstResponseMs)))),
    avgSupportTime: toMinutes(mean(present(cycles.map(handlingMs)))),
    slaMet: sla.filter((r) => r === "met").length,
    slaBreached: sla.filter((r) => r === "breached").length,
  };
};

/** A rating request counts when the close asked for one (older cycles without the mark: when a rating arrived). */
export const ratingRequested = (c: TicketCycle) => Boolean(c.ratingRequestedAt ?? c.ratedAt);

/** CSAT of a set of cycles: score = (satisfied + very satisfied) / answers; response rate = answers / requests (percent, one decimal). */
export const csatOf = (cycles: readonly TicketCycle[]): CsatFigures => {
  const rated = cycles.filter((c) => c.rating !== null && c.rating !== undefined);
  const requests = cycles.filter(ratingRequested).length;
  const count = (n: number) => rated.filter((c) => c.rating === n).length;
  const pct = (a: number, b: number) => (b ? Math.round((a / b) * 1000) / 10 : null);
  const satisfied = count(2);
  const verySatisfied = count(3);
  return { requests, answers: rated.length, unsatisfied: count(1), satisfied, verySatisfied, score: pct(satisfied + verySatisfied, rated.length), responseRate: pct(rated.length, requests) };
};
