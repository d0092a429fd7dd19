import { describe, expect, it } from "vitest";
import type { TicketCycle } from "@atende/shared/contracts/http/tickets";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { CompaniesService } from "../companies/companies.service";
import type { UserRecord } from "../users/users.ports";
import type { UsersService } from "../users/users.service";
import { createDashboardService } from "./dashboard.service";
import { startOfZonedDay, zonedDay } from "@atende/shared/domain/format/time-zone";

const TZ = "America/Sao_Paulo";
const cycle = (over: Partial<TicketCycle>): TicketCycle => ({
  ticketId: 1,
  companyId: 1,
  contactId: 1,
  whatsappId: 1,
  queueId: 1,
  userId: null,
  queuedAt: "2026-03-10T12:00:00.000Z",
  acceptedAt: null,
  finishedAt: null,
  ratedAt: null,
  rating: null,
  status: "pending",
  ...over,
});

const setup = (cycles: TicketCycle[], now = "2026-03-10T20:00:00.000Z", timezone = TZ) => {
  const asked: { from: string; to: string }[] = [];
  const people = [
    { id: 7, name: "Bruna", online: true },
    { id: 8, name: "Ana", online: false },
  ] as UserRecord[];
  const service = createDashboardService({
    cycles: {
      listCyclesBetween: async (_cid, from, to) => {
        asked.push({ from, to });
        return cycles.filter((c) => c.queuedAt >= from && c.queuedAt < to);
      },
    },
    users: { listRecordsByCompany: async () => people } as unknown as UsersService,
    companies: { findById: async () => ({ timezone }), listAll: async () => [{ id: 1 }, { id: 2 }] } as unknown as CompaniesService,
    sessions: { countConnected: async (ids) => ids.length * 2 },
    clock: () => new Date(now),
  });
  return { service, asked };
};
const auth = (isSuper = false) => ({ companyId: 1, user: { id: 8, super: isSuper, profile: "admin" } }) as unknown as AuthContext;

describe("time zone helpers", () => {
  it("a São Paulo day starts at 03:00 UTC; 01:00 UTC is still the previous day there", () => {
    expect(startOfZonedDay("2026-03-10", TZ).toISOString()).toBe("2026-03-10T03:00:00.000Z");
    expect(zonedDay("2026-03-11T01:00:00Z", TZ)).toBe("2026-03-10");
    expect(startOfZonedDay("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfZonedDay("2026-03-09", "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
  });
});

describe("dashboard figures", () => {
  const cycles = [
    // waited 10 min, supported 30 min, rated 3 by Bruna
    cycle({ ticketId: 1, userId: 7, queuedAt: "2026-03-10T12:00:00.000Z", acceptedAt: "2026-03-10T12:10:00.000Z", finishedAt: "2026-03-10T12:40:00.000Z", status: "closed", rating: 3 }),
    // waited 20 min, still open with Bruna
    cycle({ ticketId: 2, userId: 7, queuedAt: "2026-03-10T13:00:00.000Z", acceptedAt: "2026-03-10T13:20:00.000Z", status: "open" }),
    // pending
    cycle({ ticketId: 3, queuedAt: "2026-03-10T14:00:00.000Z" }),
    // Ana: waited 0, supported 10 min, rated 1; at 23:30 local of the 9th (02:30 UTC on the 10th)
    cycle({ ticketId: 4, userId: 8, queuedAt: "2026-03-10T02:30:00.000Z", acceptedAt: "2026-03-10T02:30:00.000Z", finishedAt: "2026-03-10T02:40:00.000Z", status: "closed", rating: 1 }),
  ];

  it("counts and averages in minutes for today in the company's time zone", async () => {
    const { service, asked } = setup(cycles);
    const res = await service.summary(auth(), { days: 1 });
    expect(asked[0]).toEqual({ from: "2026-03-10T03:00:00.000Z", to: "2026-03-11T03:00:00.000Z" });
    // ticket 4 was queued on the 9th, São Paulo time
    expect(res.counters).toEqual({ supportHappening: 1, supportPending: 1, supportFinished: 1, avgSupportTime: 30, avgWaitTime: 15 });
    expect(res.attendants).toEqual([
      { id: 8, name: "Ana", rating: 0, avgSupportTime: 0, online: false, tickets: 0 },
      { id: 7, name: "Bruna", rating: 3, avgSupportTime: 30, online: true, tickets: 2 },
    ]);
  });

  it("a date range covers whole local days; the operator gets the platform cards", async () => {
    const { service } = setup(cycles);
    const res = await service.summary(auth(true), { dateFrom: "2026-03-09", dateTo: "2026-03-10" });
    expect(res.counters).toMatchObject({ supportFinished: 2, avgSupportTime: 20, avgWaitTime: 10, totalCompanies: 2, totalWhatsappSessions: 4 });
    expect(res.attendants.find((a) => a.name === "Ana")).toMatchObject({ rating: 1, avgSupportTime: 10, tickets: 1 });
  });

  it("per user and per local day", async () => {
    const { service } = setup(cycles);
    expect(await service.ticketsUsers(auth(), { dateFrom: "2026-03-09", dateTo: "2026-03-10" })).toEqual({
      data: [
        { nome: "Bruna", quantidade: 2 },
        { nome: "Ana", quantidade: 1 },
      ],
      count: 3,
    });
    expect(await service.ticketsDay(auth(), { dateFrom: "2026-03-09", dateTo: "2026-03-10" })).toEqual({
      data: [
        { data: "2026-03-09", total: 1 },
        { data: "2026-03-10", total: 3 },
      ],
      count: 4,
    });
    const oneDay = await service.ticketsDay(auth(), { dateFrom: "2026-03-10", dateTo: "2026-03-10" });
    expect(oneDay.data).toEqual([
      { horario: "09", total: 1 },
      { horario: "10", total: 1 },
      { horario: "11", total: 1 },
    ]);
  });

  it("with no filter: 'Parametrize o filtro'", async () => {
    const { service } = setup(cycles);
    await expect(service.summary(auth(), {})).rejects.toMatchObject({ code: "ERR_VALIDATION" });
    await expect(service.summary(auth(), { dateFrom: "2026-03-10", dateTo: "2026-03-01" })).rejects.toMatchObject({ code: "ERR_VALIDATION" });
  });
});
