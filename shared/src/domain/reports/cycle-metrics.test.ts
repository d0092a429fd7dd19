import { describe, expect, it } from "vitest";
import type { TicketCycle } from "../../contracts/http/tickets";
import { csatOf, cycleDurations, isAbandoned, slaResults, summarizeCycles } from "./cycle-metrics";

const cycle = (over: Partial<TicketCycle>): TicketCycle => ({
  ticketId: 1,
  companyId: 1,
  contactId: 1,
  whatsappId: 1,
  queueId: 1,
  userId: 1,
  queuedAt: "2026-03-10T12:00:00.000Z",
  acceptedAt: null,
  finishedAt: null,
  ratedAt: null,
  rating: null,
  status: "pending",
  ...over,
});
const clock = (over: { metAt?: string; breachedAt?: string }) => ({ targetMinutes: 10, dueAt: null, warnedAt: null, metAt: over.metAt ?? null, breachedAt: over.breachedAt ?? null });

describe("report metrics", () => {
  it("measures wait, first response and handling from the cycle's times", () => {
    const c = cycle({ acceptedAt: "2026-03-10T12:04:00.000Z", firstResponseAt: "2026-03-10T12:05:30.000Z", finishedAt: "2026-03-10T12:10:00.000Z", status: "closed" });
    expect(cycleDurations(c)).toEqual({ waitSeconds: 240, firstResponseSeconds: 330, handlingSeconds: 360 });
    expect(cycleDurations(cycle({}))).toEqual({ waitSeconds: null, firstResponseSeconds: null, handlingSeconds: null });
  });

  it("calls a cycle abandoned when it closed without an attendant accepting it", () => {
    expect(isAbandoned(cycle({ status: "closed", finishedAt: "2026-03-10T12:10:00.000Z" }))).toBe(true);
    expect(isAbandoned(cycle({ status: "closed", acceptedAt: "2026-03-10T12:01:00.000Z" }))).toBe(false);
    expect(isAbandoned(cycle({ status: "pending" }))).toBe(false);
  });

  it("sums up a set: averages only over the cycles where the interval exists", () => {
    const s = summarizeCycles([
      cycle({ status: "closed", acceptedAt: "2026-03-10T12:02:00.000Z", finishedAt: "2026-03-10T12:12:00.000Z" }),
      cycle({ status: "open", acceptedAt: "2026-03-10T12:04:00.000Z" }),
      cycle({ status: "closed", finishedAt: "2026-03-10T12:30:00.000Z" }),
      cycle({ status: "pending" }),
    ]);
    expect(s).toEqual({ total: 4, pending: 1, open: 1, closed: 2, abandoned: 1, avgWaitTime: 3, avgFirstResponseTime: 0, avgSupportTime: 10, slaMet: 0, slaBreached: 0 });
  });

  it("reads an SLA as breached if any clock breached, met when all were met", () => {
    expect(slaResults(null).overall).toBeNull();
    expect(slaResults({ firstResponse: clock({ metAt: "x" }), nextResponse: null, resolution: clock({ metAt: "y" }) }).overall).toBe("met");
    expect(slaResults({ firstResponse: clock({ metAt: "x" }), nextResponse: null, resolution: clock({}) }).overall).toBe("running");
    expect(slaResults({ firstResponse: clock({ metAt: "x", breachedAt: "z" }), nextResponse: null, resolution: clock({ metAt: "y" }) })).toEqual({
      firstResponse: "breached",
      nextResponse: null,
      resolution: "met",
      overall: "breached",
    });
  });

  it("computes CSAT: satisfied + very satisfied over answers, answers over requests", () => {
    const asked = "2026-03-10T12:10:00.000Z";
    const f = csatOf([
      cycle({ ratingRequestedAt: asked, rating: 3, ratedAt: asked }),
      cycle({ ratingRequestedAt: asked, rating: 2, ratedAt: asked }),
      cycle({ ratingRequestedAt: asked, rating: 1, ratedAt: asked }),
      cycle({ ratingRequestedAt: asked }),
      cycle({}),
    ]);
    expect(f).toEqual({ requests: 4, answers: 3, unsatisfied: 1, satisfied: 1, verySatisfied: 1, score: 66.7, responseRate: 75 });
    expect(csatOf([])).toEqual({ requests: 0, answers: 0, unsatisfied: 0, satisfied: 0, verySatisfied: 0, score: null, responseRate: null });
    // a cycle rated before the request was marked (older data) counts as asked
    expect(csatOf([cycle({ rating: 3, ratedAt: asked })])).toMatchObject({ requests: 1, answers: 1, responseRate: 100 });
  });
});
