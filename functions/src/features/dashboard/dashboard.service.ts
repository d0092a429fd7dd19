import type { DashboardResponse, TicketsDayResponse, TicketsUsersResponse } from "@atende/shared/contracts/http/dashboard";
import type { TicketCycle } from "@atende/shared/contracts/http/tickets";
import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { AppError } from "../../platform/errors";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { CompaniesService } from "../companies/companies.service";
import type { UsersService } from "../users/users.service";
import { handlingMs, summarizeCycles, toMinutes } from "@atende/shared/domain/reports/cycle-metrics";
import { addDays, startOfZonedDay, zonedDay, zoneOffsetMs } from "@atende/shared/domain/format/time-zone";

/** What the dashboard needs from the inbox: the attention cycles queued in a time range (docs/adr/0005-ticket-keys.md). */
export type CycleSource = { listCyclesBetween(companyId: number, fromIso: string, toIso: string): Promise<TicketCycle[]> };
/** The operator's extra cards: connected sessions across the platform. */
export type SessionCounter = { countConnected(companyIds: number[]): Promise<number> };

export type DashboardRange = { days?: number; dateFrom?: string; dateTo?: string };
const MAX_RANGE_DAYS = 366;
const minutes = toMinutes;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export const createDashboardService = (deps: {
  cycles: CycleSource;
  users: UsersService;
  companies: CompaniesService;
  sessions: SessionCounter;
  clock: () => Date;
}) => {
  const { cycles, users, companies, clock } = deps;

  /**
   * The range in the company's time zone: the last `days` calendar days including today, or
   * [date_from 00:00, date_to 24:00). Neither is 'Parametrize o filtro' (ERR_VALIDATION).
   */
  const rangeOf = async (companyId: number, r: DashboardRange) => {
    const tz = (await companies.findById(companyId))?.timezone ?? DEFAULT_TIME_ZONE;
    const today = zonedDay(clock(), tz);
    let fromDay: string;
    let toDay: string;
    if (r.dateFrom || r.dateTo) {
      fromDay = r.dateFrom ?? r.dateTo!;
      toDay = r.dateTo ?? today;
    } else if (r.days) {
      fromDay = addDays(today, -(r.days - 1));
      toDay = today;
    } else {
      throw new AppError("ERR_VALIDATION", { reason: "Parametrize o filtro" });
    }
    if (fromDay > toDay) throw new AppError("ERR_VALIDATION", { reason: "date_from after date_to" });
    const span = (Date.parse(toDay) - Date.parse(fromDay)) / 86_400_000 + 1;
    if (span > MAX_RANGE_DAYS) throw new AppError("ERR_VALIDATION", { reason: "range too long" });
    return { tz, fromDay, toDay, from: startOfZonedDay(fromDay, tz).toISOString(), to: startOfZonedDay(addDays(toDay, 1), tz).toISOString() };
  };

  const load = async (companyId: number, r: DashboardRange) => {
    const range = await rangeOf(companyId, r);
    return { range, list: await cycles.listCyclesBetween(companyId, range.from, range.to) };
  };

  return {
    /** GET /dashboard: counters and attendants of the company (the operator also gets platform cards). */
    async summary(auth: AuthContext, r: DashboardRange): Promise<DashboardResponse> {
      const { list } = await load(auth.companyId, r);
      // the report's definitions (shared/src/domain/reports/cycle-metrics.ts): the report shows the same figures
      const summary = summarizeCycles(list);
      const people = await users.listRecordsByCompany(auth.companyId);
      const attendants = people
        .map((u) => {
          const mine = list.filter((c) => c.userId === u.id);
          const ratings = mine.flatMap((c) => (c.rating ? [c.rating] : []));
          const support = mine.flatMap((c) => {
            const h = handlingMs(c);
            return h === null ? [] : [h];
          });
          return {
            id: u.id,
            name: u.name,
            rating: Math.round(mean(ratings) * 10) / 10,
            avgSupportTime: minutes(mean(support)),
            online: u.online,
            tickets: mine.length,
          };
        })
        .sort((a, b) => a.name.localeCompare(b.name));
      const counters: DashboardResponse["counters"] = {
        supportHappening: summary.open,
        supportPending: summary.pending,
        supportFinished: summary.closed,
        avgSupportTime: summary.avgSupportTime,
        avgWaitTime: summary.avgWaitTime,
      };
      if (auth.user.super) {
        const all = await companies.listAll();
        counters.totalCompanies = all.length;
        counters.totalWhatsappSessions = await deps.sessions.countConnected(all.map((c) => c.id));
      }
      return { counters, attendants };
    },

    /** GET /dashboard/ticketsUsers: tickets per attendant in the range. */
    async ticketsUsers(auth: AuthContext, r: DashboardRange): Promise<TicketsUsersResponse> {
      const { list } = await load(auth.companyId, r);
      const names = new Map((await users.listRecordsByCompany(auth.companyId)).map((u) => [u.id, u.name]));
      const totals = new Map<string, number>();
      for (const c of list) {
        if (!c.userId) continue;
        const label = names.get(c.userId) ?? `#${c.userId}`;
        totals.set(label, (totals.get(label) ?? 0) + 1);
      }
      const data = [...totals].map(([nome, quantidade]) => ({ nome, quantidade })).sort((a, b) => b.quantidade - a.quantidade);
      return { data, count: data.reduce((s, d) => s + d.quantidade, 0) };
    },

    /** GET /dashboard/ticketsDay: tickets per calendar day (company time zone); one day is split by hour (`horario`). */
    async ticketsDay(auth: AuthContext, r: DashboardRange): Promise<TicketsDayResponse> {
      const { range, list } = await load(auth.companyId, r);
      const byHour = range.fromDay === range.toDay;
      const totals = new Map<string, number>();
      if (!byHour) for (let d = range.fromDay; d <= range.toDay; d = addDays(d, 1)) totals.set(d, 0);
      for (const c of list) {
        const label = byHour
          ? String(new Date(Date.parse(c.queuedAt) + zoneOffsetMs(new Date(c.queuedAt), range.tz)).getUTCHours()).padStart(2, "0")
          : zonedDay(c.queuedAt, range.tz);
        totals.set(label, (totals.get(label) ?? 0) + 1);
      }
      const data = [...totals]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, total]) => (byHour ? { horario: key, total } : { data: key, total }));
      return { data, count: list.length };
    },
  };
};
export type DashboardService = ReturnType<typeof createDashboardService>;
