import { queryOptions, useQuery } from "@tanstack/react-query";
import type { DashboardResponse, TicketsDayResponse, TicketsUsersResponse } from "@atende/shared/contracts/http/dashboard";
import { api } from "../../../lib/api-client";

/** The filter: a period in days, or a date range (yyyy-MM-dd). */
export type DashboardFilter = { days?: number; dateFrom?: string; dateTo?: string };
export const hasFilter = (f: DashboardFilter) => Boolean(f.days || f.dateFrom || f.dateTo);

export const dashboardKeys = {
  all: ["dashboard"] as const,
  summary: (f: DashboardFilter) => [...dashboardKeys.all, "summary", f] as const,
  chart: (kind: "ticketsUsers" | "ticketsDay", f: DashboardFilter) => [...dashboardKeys.all, kind, f] as const,
};

/** GET /dashboard?days | date_from&date_to */
export const dashboardQueryOptions = (f: DashboardFilter) =>
  queryOptions({
    queryKey: dashboardKeys.summary(f),
    queryFn: () => api.get<DashboardResponse>("/dashboard", { query: { days: f.days, date_from: f.dateFrom, date_to: f.dateTo } }),
  });
export const useDashboard = (f: DashboardFilter) => useQuery({ ...dashboardQueryOptions(f), enabled: hasFilter(f) });

/** A chart's bars: label and value (ticketsUsers answers `nome`/`quantidade`, ticketsDay `data` or `horario`/`total`). */
export type ChartBars = { data: { label: string; total: number }[]; count: number };
const dayLabel = (day: string) => day.split("-").reverse().slice(0, 2).join("/");
const toBars = (kind: "ticketsUsers" | "ticketsDay", res: TicketsUsersResponse | TicketsDayResponse): ChartBars => ({
  count: res.count,
  data:
    kind === "ticketsUsers"
      ? (res as TicketsUsersResponse).data.map((d) => ({ label: d.nome, total: d.quantidade }))
      : (res as TicketsDayResponse).data.map((d) => ({ label: "horario" in d ? `${d.horario}:00` : dayLabel(d.data), total: d.total })),
});

/** GET /dashboard/ticketsUsers | ticketsDay with initialDate, finalDate (or days). */
export const dashboardChartOptions = (kind: "ticketsUsers" | "ticketsDay", f: DashboardFilter) =>
  queryOptions({
    queryKey: dashboardKeys.chart(kind, f),
    queryFn: async () =>
      toBars(kind, await api.get<TicketsUsersResponse | TicketsDayResponse>(`/dashboard/${kind}`, { query: { days: f.days, initialDate: f.dateFrom, finalDate: f.dateTo } })),
    meta: { silentError: true },
  });
export const useDashboardChart = (kind: "ticketsUsers" | "ticketsDay", f: DashboardFilter) => useQuery({ ...dashboardChartOptions(kind, f), enabled: hasFilter(f) });
