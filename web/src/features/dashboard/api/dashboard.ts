import { queryOptions, useQuery } from "@tanstack/react-query";
import type { DashboardChartResponse, DashboardResponse } from "@atende/shared/contracts/http/dashboard";
import { api } from "../../../lib/api-client";

/** The filter: a period in days, or a date range (yyyy-MM-dd). */
export type DashboardFilter = { days?: number; dateFrom?: string; dateTo?: string };
export const hasFilter = (f: DashboardFilter) => Boolean(f.days || f.dateFrom || f.dateTo);

export const dashboardKeys = { all: ["dashboard"] as const };

/** GET /dashboard?days | date_from&date_to */
export const dashboardQueryOptions = (f: DashboardFilter) =>
  queryOptions({
    queryKey: [...dashboardKeys.all, "summary", f],
    queryFn: () => api.get<DashboardResponse>("/dashboard", { query: { days: f.days, date_from: f.dateFrom, date_to: f.dateTo } }),
  });
export const useDashboard = (f: DashboardFilter) => useQuery({ ...dashboardQueryOptions(f), enabled: hasFilter(f) });

/** GET /dashboard/ticketsUsers | ticketsDay with initialDate, finalDate (or days). */
export const dashboardChartOptions = (kind: "ticketsUsers" | "ticketsDay", f: DashboardFilter) =>
  queryOptions({
    queryKey: [...dashboardKeys.all, kind, f],
    queryFn: () => api.get<DashboardChartResponse>(`/dashboard/${kind}`, { query: { days: f.days, initialDate: f.dateFrom, finalDate: f.dateTo } }),
    meta: { silentError: true },
  });
export const useDashboardChart = (kind: "ticketsUsers" | "ticketsDay", f: DashboardFilter) => useQuery({ ...dashboardChartOptions(kind, f), enabled: hasFilter(f) });
