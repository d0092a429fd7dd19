import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import type { CsatResponse, ReportExportView, ReportResponse } from "@atende/shared/contracts/http/reports";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import { api } from "../../../lib/api-client";

/** The Relatórios page's filters as the page holds them (days YYYY-MM-DD, read in the company's time zone). */
export type ReportFilterState = {
  dateFrom: string;
  dateTo: string;
  queueIds: number[];
  whatsappIds: number[];
  userIds: number[];
  tags: number[];
  status: TicketStatus | "";
  rating: "" | "1" | "2" | "3" | "rated" | "unrated";
  sla: "" | "met" | "breached";
  abandoned: boolean;
  searchParam: string;
};

/** The current month in the browser's calendar (the server reads the days in the company's time zone). */
export const currentMonth = (now = new Date()): Pick<ReportFilterState, "dateFrom" | "dateTo"> => {
  const pad = (n: number) => String(n).padStart(2, "0");
  const y = now.getFullYear();
  const m = now.getMonth() + 1;
  const last = new Date(y, m, 0).getDate();
  return { dateFrom: `${y}-${pad(m)}-01`, dateTo: `${y}-${pad(m)}-${pad(last)}` };
};
export const emptyReportFilters = (now = new Date()): ReportFilterState => ({
  ...currentMonth(now),
  queueIds: [],
  whatsappIds: [],
  userIds: [],
  tags: [],
  status: "",
  rating: "",
  sla: "",
  abandoned: false,
  searchParam: "",
});

/** The query of GET /ticket/reports (and the body of an export): empty filters are left out. */
export const reportQuery = (f: ReportFilterState) => ({
  dateFrom: f.dateFrom || undefined,
  dateTo: f.dateTo || undefined,
  queueIds: f.queueIds.length ? f.queueIds : undefined,
  whatsappIds: f.whatsappIds.length ? f.whatsappIds : undefined,
  userIds: f.userIds.length ? f.userIds : undefined,
  tags: f.tags.length ? f.tags : undefined,
  status: f.status || undefined,
  rating: f.rating || undefined,
  sla: f.sla || undefined,
  abandoned: f.abandoned ? 1 : undefined,
  searchParam: f.searchParam.trim() || undefined,
});

export const REPORT_PAGE_SIZE = 50;
export const reportKeys = {
  all: ["reports"] as const,
  list: (f: ReportFilterState) => [...reportKeys.all, "list", f] as const,
  csat: (f: ReportFilterState) => [...reportKeys.all, "csat", f] as const,
  export: (id: string) => [...reportKeys.all, "export", id] as const,
};

export const reportOptions = (f: ReportFilterState) =>
  infiniteQueryOptions({
    queryKey: reportKeys.list(f),
    queryFn: ({ pageParam }) => api.get<ReportResponse>("/ticket/reports", { query: { ...reportQuery(f), pageNumber: pageParam, pageSize: REPORT_PAGE_SIZE } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * REPORT_PAGE_SIZE < last.totalTickets ? pages.length + 1 : undefined),
  });
export const useReport = (f: ReportFilterState) => useInfiniteQuery(reportOptions(f));

export const csatOptions = (f: ReportFilterState) => queryOptions({ queryKey: reportKeys.csat(f), queryFn: () => api.get<CsatResponse>("/reports/csat", { query: reportQuery(f) }) });
export const useCsat = (f: ReportFilterState, enabled: boolean) => useQuery({ ...csatOptions(f), enabled });

/** POST /reports/exports: the export, finished (small) or running as a job. */
export const useStartExport = () =>
  useMutation({
    mutationFn: async (input: { filters: ReportFilterState; format: "csv" | "xlsx"; locale: "pt" | "en" | "es" }) =>
      (await api.post<{ job: ReportExportView }>("/reports/exports", { ...reportQuery(input.filters), format: input.format, locale: input.locale })).job,
  });

/** GET /reports/exports/{id}: polled while the job runs (the `report` realtime event also brings its progress). */
export const exportOptions = (id: string) => queryOptions({ queryKey: reportKeys.export(id), queryFn: () => api.get<ReportExportView>(`/reports/exports/${id}`) });
export const useExportJob = (id: string | null) =>
  useQuery({ ...exportOptions(id ?? ""), enabled: Boolean(id), refetchInterval: (q) => (q.state.data?.status === "running" ? 1500 : false) });

/** The finished file, saved by the browser. */
export const downloadExport = async (job: ReportExportView, filename: string) => {
  const blob = await api.get<Blob>(`/reports/exports/${job.id}/download`, { responseType: "blob" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};
