import { addBusinessMs, businessMsBetween, type BusinessCalendar } from "../calendar/business-time";

/** A queue's SLA targets in business minutes (issue 13); null: no target of that kind. */
export type SlaPolicy = { firstResponseMinutes: number | null; nextResponseMinutes: number | null; resolutionMinutes: number | null };
export type SlaState = "ok" | "warning" | "breached";

/** Amber at 80 % of a target (the owner, or the queue's admins when unassigned, are told once). */
export const SLA_WARNING_RATIO = 0.8;

/**
 * One target's clock: business time elapsed since `since` (minus `pausedMs`, time waiting on the customer, which
 * does not count toward resolution), the time left, the state and when it falls due (and when it turns amber).
 */
export const slaClock = (opts: { since: Date; now: Date; targetMinutes: number; pausedMs?: number; calendar: BusinessCalendar }) => {
  const targetMs = opts.targetMinutes * 60_000;
  const elapsedMs = Math.max(0, businessMsBetween(opts.since, opts.now, opts.calendar) - (opts.pausedMs ?? 0));
  const leftMs = targetMs - elapsedMs;
  const state: SlaState = leftMs <= 0 ? "breached" : elapsedMs >= targetMs * SLA_WARNING_RATIO ? "warning" : "ok";
  const dueAt = addBusinessMs(opts.now, Math.max(0, leftMs), opts.calendar);
  const warnAt = addBusinessMs(opts.now, Math.max(0, targetMs * SLA_WARNING_RATIO - elapsedMs), opts.calendar);
  return { elapsedMs, leftMs, state, dueAt, warnAt };
};
