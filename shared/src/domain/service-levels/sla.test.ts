import { describe, expect, it } from "vitest";
import type { BusinessCalendar } from "../calendar/business-time";
import { brazilHolidays } from "../calendar/brazil-holidays";
import { evaluateCycleSla, newSlaAlerts, slaClock, slaDisplay, slaWakeUps, type SlaPolicy, type SlaTicketState } from "./sla";

const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday"].map((weekdayEn) => ({ weekdayEn, startTime: "09:00", endTime: "18:00" }));
const cal: BusinessCalendar = { timeZone: "America/Sao_Paulo", hours: weekdays, holidays: new Set() };
const at = (local: string) => new Date(`${local}:00-03:00`);

describe("SLA clock", () => {
  it("ok, then amber at 80 %, then breached, in business time", () => {
    const since = at("2026-03-13T17:00"); // Friday
    expect(slaClock({ since, now: at("2026-03-13T17:30"), targetMinutes: 120, calendar: cal }).state).toBe("ok");
    // 1 h Friday + 36 min Monday = 96 min = 80 %
    const amber = slaClock({ since, now: at("2026-03-16T09:36"), targetMinutes: 120, calendar: cal });
    expect(amber.state).toBe("warning");
    expect(amber.leftMs).toBe(24 * 60_000);
    expect(amber.dueAt?.toISOString()).toBe(at("2026-03-16T10:00").toISOString());
    expect(slaClock({ since, now: at("2026-03-16T10:00"), targetMinutes: 120, calendar: cal }).state).toBe("breached");
  });

  it("time waiting on the customer does not count", () => {
    const c = slaClock({ since: at("2026-03-10T09:00"), now: at("2026-03-10T12:00"), targetMinutes: 120, pausedMs: 90 * 60_000, calendar: cal });
    expect(c.elapsedMs).toBe(90 * 60_000);
    expect(c.state).toBe("ok");
    expect(c.warnAt?.toISOString()).toBe(at("2026-03-10T12:06").toISOString());
  });
});

describe("a cycle's SLA clocks (evaluateCycleSla)", () => {
  const national = new Set([...brazilHolidays(2026)].map((h) => h.date));
  const full: BusinessCalendar = { timeZone: "America/Sao_Paulo", hours: weekdays, holidays: new Set([...national, "2026-03-19"]) };
  const policy: SlaPolicy = { firstResponseMinutes: 60, nextResponseMinutes: 30, resolutionMinutes: 240 };
  const state = (over: Partial<SlaTicketState> = {}): SlaTicketState => ({
    status: "pending",
    lastFromMe: false,
    lastMessageAt: at("2026-03-10T10:00").toISOString(),
    firstResponseAt: null,
    lastResponseAt: null,
    finishedAt: null,
    ...over,
  });
  const iso = (local: string) => at(local).toISOString();

  it("starts first response and resolution when the cycle sits in a queue with a policy; nothing without one", () => {
    expect(evaluateCycleSla(null, state(), null, full, at("2026-03-10T10:00"))).toBeNull();
    const sla = evaluateCycleSla(null, state(), policy, full, at("2026-03-10T10:00"))!;
    expect(sla.firstResponse).toMatchObject({ targetMinutes: 60, dueAt: iso("2026-03-10T11:00"), warnAt: iso("2026-03-10T10:48"), metAt: null });
    expect(sla.resolution).toMatchObject({ targetMinutes: 240, dueAt: iso("2026-03-10T14:00") });
    expect(sla.nextResponse).toBeNull();
    expect(slaWakeUps(sla, "pending")).toEqual([iso("2026-03-10T10:48"), iso("2026-03-10T11:00"), iso("2026-03-10T13:12"), iso("2026-03-10T14:00")]);
  });

  it("across the night: a ticket at 17:30 is due the next morning (18:00-09:00 does not count)", () => {
    const sla = evaluateCycleSla(null, state(), policy, full, at("2026-03-10T17:30"))!;
    expect(sla.firstResponse?.dueAt).toBe(iso("2026-03-11T09:30"));
  });

  it("across the weekend and Carnival: Friday 17:30 before Carnival is due on Ash Wednesday 09:30", () => {
    // 2026-02-13 is the Friday before Carnival (Monday 16th, Tuesday 17th)
    const sla = evaluateCycleSla(null, state(), policy, full, at("2026-02-13T17:30"))!;
    expect(sla.firstResponse?.dueAt).toBe(iso("2026-02-18T09:30"));
    expect(sla.firstResponse?.warnAt).toBe(iso("2026-02-18T09:18"));
  });

  it("skips the company's own holiday (Thursday 19 March)", () => {
    const sla = evaluateCycleSla(null, state(), policy, full, at("2026-03-18T17:30"))!;
    expect(sla.firstResponse?.dueAt).toBe(iso("2026-03-20T09:30"));
  });

  it("amber at 80 %, breach recorded at its due time, alerts told once", () => {
    const start = evaluateCycleSla(null, state(), policy, full, at("2026-03-10T10:00"))!;
    const amber = evaluateCycleSla(start, state(), policy, full, at("2026-03-10T10:49"))!;
    expect(amber.firstResponse).toMatchObject({ warnedAt: iso("2026-03-10T10:49"), breachedAt: null });
    expect(newSlaAlerts(start, amber)).toEqual([{ kind: "firstResponse", level: "warning", at: iso("2026-03-10T10:49") }]);
    expect(slaDisplay(amber, "pending", at("2026-03-10T10:49"))).toMatchObject({ kind: "firstResponse", state: "warning", leftMs: 11 * 60_000 });
    const red = evaluateCycleSla(amber, state(), policy, full, at("2026-03-10T11:01"))!;
    expect(red.firstResponse).toMatchObject({ breachedAt: iso("2026-03-10T11:00") });
    expect(newSlaAlerts(amber, red)).toEqual([{ kind: "firstResponse", level: "breach", at: iso("2026-03-10T11:00") }]);
    expect(newSlaAlerts(red, evaluateCycleSla(red, state(), policy, full, at("2026-03-10T11:05")))).toEqual([]);
    expect(slaDisplay(red, "pending", at("2026-03-10T11:05"))?.state).toBe("breached");
  });

  it("first response met by the attendant's answer stops that clock; met late is a breach at the due time", () => {
    const start = evaluateCycleSla(null, state(), policy, full, at("2026-03-10T10:00"))!;
    const answered = state({ status: "open", firstResponseAt: iso("2026-03-10T10:30"), lastResponseAt: iso("2026-03-10T10:30"), lastMessageAt: iso("2026-03-10T10:30"), lastFromMe: true });
    const met = evaluateCycleSla(start, answered, policy, full, at("2026-03-10T10:30"))!;
    expect(met.firstResponse).toMatchObject({ metAt: iso("2026-03-10T10:30"), breachedAt: null });
    expect(evaluateCycleSla(met, answered, policy, full, at("2026-03-10T11:30"))!.firstResponse?.breachedAt).toBeNull();
    const late = state({ status: "open", firstResponseAt: iso("2026-03-10T11:20"), lastResponseAt: iso("2026-03-10T11:20"), lastMessageAt: iso("2026-03-10T11:20"), lastFromMe: true });
    expect(evaluateCycleSla(start, late, policy, full, at("2026-03-10T11:20"))!.firstResponse).toMatchObject({ metAt: iso("2026-03-10T11:20"), breachedAt: iso("2026-03-10T11:00") });
  });

  it("resolution does not count while waiting on the customer, and is met on close", () => {
    const start = evaluateCycleSla(null, state(), policy, full, at("2026-03-10T10:00"))!;
    // the attendant answers at 10:30: waiting on the customer from then
    const waiting = state({ status: "open", firstResponseAt: iso("2026-03-10T10:30"), lastResponseAt: iso("2026-03-10T10:30"), lastMessageAt: iso("2026-03-10T10:30"), lastFromMe: true });
    const paused = evaluateCycleSla(start, waiting, policy, full, at("2026-03-10T10:30"))!;
    expect(paused.resolution).toMatchObject({ pausedSince: iso("2026-03-10T10:30"), dueAt: null });
    expect(slaWakeUps(paused, "open")).toEqual([]);
    // the customer answers the next day at 09:30 (8 business hours paused): 30 min had counted, 210 left
    const back = state({ status: "open", firstResponseAt: iso("2026-03-10T10:30"), lastResponseAt: iso("2026-03-10T10:30"), lastMessageAt: iso("2026-03-11T09:30"), lastFromMe: false });
    const resumed = evaluateCycleSla(paused, back, policy, full, at("2026-03-11T09:30"))!;
    expect(resumed.resolution).toMatchObject({ pausedSince: null, pausedMs: 8 * 3_600_000, dueAt: iso("2026-03-11T13:00") });
    // and the next response clock starts with the customer's turn
    expect(resumed.nextResponse).toMatchObject({ targetMinutes: 30, dueAt: iso("2026-03-11T10:00") });
    const closed = evaluateCycleSla(resumed, { ...back, status: "closed", finishedAt: iso("2026-03-11T09:45") }, policy, full, at("2026-03-11T09:45"))!;
    expect(closed.resolution).toMatchObject({ metAt: iso("2026-03-11T09:45"), breachedAt: null });
    expect(slaWakeUps(closed, "closed")).toEqual([]);
    expect(slaDisplay(closed, "closed", at("2026-03-11T09:45"))).toBeNull();
  });
});
