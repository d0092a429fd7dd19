import type { CycleSla, SlaClockRecord } from "../../contracts/http/tickets";
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

// ---- the clocks of one attention cycle (issue 13 item 4, docs/adr/0033-sla-clocks-and-protocols.md) ----

export type SlaClockKind = keyof CycleSla;
export const SLA_CLOCK_KINDS: SlaClockKind[] = ["firstResponse", "nextResponse", "resolution"];

/** What the evaluator reads of a ticket: its status, last message and the cycle's attendant answers. */
export type SlaTicketState = {
  status: "pending" | "open" | "closed";
  lastFromMe: boolean;
  lastMessageAt: string;
  firstResponseAt: string | null;
  /** the last message an attendant sent in the cycle */
  lastResponseAt: string | null;
  finishedAt: string | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A clock started at `at`: due and amber instants in business time. */
const startClock = (targetMinutes: number, at: Date, cal: BusinessCalendar): SlaClockRecord => ({
  targetMinutes,
  startedAt: at.toISOString(),
  pausedMs: 0,
  pausedSince: null,
  dueAt: iso(addBusinessMs(at, targetMinutes * 60_000, cal)),
  warnAt: iso(addBusinessMs(at, targetMinutes * 60_000 * SLA_WARNING_RATIO, cal)),
  metAt: null,
  warnedAt: null,
  breachedAt: null,
});

/** Due and amber instants again from `now` (after a pause ended): business time elapsed minus the time paused. */
const reschedule = (c: SlaClockRecord, now: Date, cal: BusinessCalendar): SlaClockRecord => {
  const clock = slaClock({ since: new Date(c.startedAt ?? now.toISOString()), now, targetMinutes: c.targetMinutes, pausedMs: c.pausedMs ?? 0, calendar: cal });
  return { ...c, dueAt: c.breachedAt ? c.dueAt : iso(clock.dueAt), warnAt: c.warnedAt ? (c.warnAt ?? null) : iso(clock.warnAt) };
};

/** A met clock that was met after it fell due (the tick had not seen it yet) is recorded as breached at its due time. */
const meet = (c: SlaClockRecord, at: string): SlaClockRecord => ({ ...c, metAt: at, breachedAt: c.breachedAt ?? (c.dueAt && at > c.dueAt ? c.dueAt : null) });

/** A clock still counting (not met, not paused, the cycle not closed). */
export const isRunning = (c: SlaClockRecord | null | undefined, status: SlaTicketState["status"]): c is SlaClockRecord =>
  Boolean(c && !c.metAt && !c.pausedSince && status !== "closed");

/**
 * The cycle's SLA clocks after a change (pure): started when the cycle first sits in a queue with a policy (the
 * policy of that moment; next-response follows the current queue's), first response met by the first attendant
 * answer, resolution met on close and paused while the attendant's answer is the last message (waiting on the
 * customer), next response restarted by each customer message after an answer. Amber at 80 % and breach are
 * stamped when `now` reaches them (breach: the due instant itself). null: the cycle has no clocks.
 */
export const evaluateCycleSla = (
  prev: CycleSla | null | undefined,
  t: SlaTicketState,
  policy: SlaPolicy | null,
  cal: BusinessCalendar,
  now: Date,
): CycleSla | null => {
  let sla: CycleSla | null = prev ?? null;
  if (!sla) {
    if (!policy || t.status === "closed" || (!policy.firstResponseMinutes && !policy.resolutionMinutes && !policy.nextResponseMinutes)) return null;
    sla = {
      firstResponse: policy.firstResponseMinutes ? startClock(policy.firstResponseMinutes, now, cal) : null,
      nextResponse: null,
      resolution: policy.resolutionMinutes ? startClock(policy.resolutionMinutes, now, cal) : null,
    };
  }
  let { firstResponse, nextResponse, resolution } = sla;
  const nowIso = now.toISOString();

  if (firstResponse && !firstResponse.metAt && t.firstResponseAt) firstResponse = meet(firstResponse, t.firstResponseAt);

  if (resolution && !resolution.metAt) {
    // the attendant answered and the last message is ours: the ball is with the customer
    const waiting = t.status !== "closed" && t.lastFromMe && t.lastResponseAt !== null;
    if (resolution.pausedSince && (!waiting || t.status === "closed")) {
      const paused = businessMsBetween(new Date(resolution.pausedSince), now, cal);
      resolution = reschedule({ ...resolution, pausedMs: (resolution.pausedMs ?? 0) + paused, pausedSince: null }, now, cal);
    }
    if (t.status === "closed") resolution = meet(resolution, t.finishedAt ?? nowIso);
    else if (waiting && !resolution.pausedSince) resolution = { ...resolution, pausedSince: nowIso, dueAt: resolution.breachedAt ? resolution.dueAt : null, warnAt: resolution.warnedAt ? (resolution.warnAt ?? null) : null };
  }

  const nextTarget = policy?.nextResponseMinutes ?? null;
  if (nextResponse && !nextResponse.metAt && t.lastResponseAt && nextResponse.startedAt && t.lastResponseAt > nextResponse.startedAt) nextResponse = meet(nextResponse, t.lastResponseAt);
  const customerWaiting = t.status !== "closed" && !t.lastFromMe && t.firstResponseAt !== null;
  // a breached next-response stays on the cycle as its record; otherwise each new customer turn restarts it
  if (nextTarget && customerWaiting && (!nextResponse || (nextResponse.metAt && !nextResponse.breachedAt))) nextResponse = startClock(nextTarget, now, cal);

  const stamp = (c: SlaClockRecord | null): SlaClockRecord | null => {
    if (!isRunning(c, t.status)) return c;
    let next = c;
    if (!next.warnedAt && next.warnAt && nowIso >= next.warnAt) next = { ...next, warnedAt: nowIso };
    if (!next.breachedAt && next.dueAt && nowIso >= next.dueAt) next = { ...next, breachedAt: next.dueAt, warnedAt: next.warnedAt ?? nowIso };
    return next;
  };
  return { firstResponse: stamp(firstResponse), nextResponse: stamp(nextResponse), resolution: stamp(resolution) };
};

/** The instants at which the tick must look at the cycle again (amber, due) of every clock still counting. */
export const slaWakeUps = (sla: CycleSla | null | undefined, status: SlaTicketState["status"]): string[] => {
  if (!sla) return [];
  const out = new Set<string>();
  for (const kind of SLA_CLOCK_KINDS) {
    const c = sla[kind];
    if (!isRunning(c, status)) continue;
    if (!c.warnedAt && c.warnAt) out.add(c.warnAt);
    if (!c.breachedAt && c.dueAt) out.add(c.dueAt);
  }
  return [...out].sort();
};

export type SlaAlert = { kind: SlaClockKind; level: "warning" | "breach"; at: string };

/** Warnings and breaches newly stamped between two evaluations (who is told: the owner, else the queue). */
export const newSlaAlerts = (before: CycleSla | null | undefined, after: CycleSla | null | undefined): SlaAlert[] => {
  if (!after) return [];
  const alerts: SlaAlert[] = [];
  for (const kind of SLA_CLOCK_KINDS) {
    const b = before?.[kind];
    const a = after[kind];
    if (!a) continue;
    if (a.breachedAt && a.breachedAt !== b?.breachedAt) alerts.push({ kind, level: "breach", at: a.breachedAt });
    else if (a.warnedAt && a.warnedAt !== b?.warnedAt) alerts.push({ kind, level: "warning", at: a.warnedAt });
  }
  return alerts;
};

/** What a ticket card shows: the most urgent clock still counting (or the breach), its state and time left. */
export const slaDisplay = (sla: CycleSla | null | undefined, status: SlaTicketState["status"], now: Date) => {
  if (!sla || status === "closed") return null;
  let best: { kind: SlaClockKind; state: SlaState; dueAt: string | null; leftMs: number | null; paused: boolean } | null = null;
  const rank = { breached: 2, warning: 1, ok: 0 } as const;
  for (const kind of SLA_CLOCK_KINDS) {
    const c = sla[kind];
    if (!c || c.metAt) continue;
    const nowIso = now.toISOString();
    const state: SlaState = c.breachedAt || (c.dueAt && nowIso >= c.dueAt) ? "breached" : c.warnedAt || (c.warnAt && nowIso >= c.warnAt) ? "warning" : "ok";
    const leftMs = c.dueAt ? new Date(c.dueAt).getTime() - now.getTime() : null;
    const candidate = { kind, state, dueAt: c.dueAt, leftMs, paused: Boolean(c.pausedSince) };
    if (!best || rank[state] > rank[best.state] || (rank[state] === rank[best.state] && (leftMs ?? Infinity) < (best.leftMs ?? Infinity))) best = candidate;
  }
  return best;
};
