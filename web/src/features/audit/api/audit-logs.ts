import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { AuditLogListResponse } from "@atende/shared/contracts/http/audit";
import type { AuditAction, AuditRecordKind } from "@atende/shared/domain/audit/audit";
import { api } from "../../../lib/api-client";

/** The Auditoria page's filters, as the page holds them (days as YYYY-MM-DD in the browser's time zone). */
export type AuditFilters = {
  fromDay: string;
  toDay: string;
  userId: number | "";
  action: AuditAction | "";
  recordKind: AuditRecordKind | "";
  recordId: string;
  /** the operator's company filter ("" = every company) */
  companyId: number | "";
};

export const EMPTY_AUDIT_FILTERS: AuditFilters = { fromDay: "", toDay: "", userId: "", action: "", recordKind: "", recordId: "", companyId: "" };

/** The query string of GET /audit-logs: a day's start and end in the browser's time zone, as instants. */
export const auditQuery = (f: AuditFilters) => ({
  from: f.fromDay ? new Date(`${f.fromDay}T00:00:00`).toISOString() : undefined,
  to: f.toDay ? new Date(`${f.toDay}T23:59:59.999`).toISOString() : undefined,
  userId: f.userId === "" ? undefined : f.userId,
  action: f.action || undefined,
  recordKind: f.recordKind || undefined,
  recordId: f.recordId.trim() || undefined,
  companyId: f.companyId === "" ? undefined : f.companyId,
});

const auditKeys = { all: ["audit-logs"] as const, list: (f: AuditFilters) => [...auditKeys.all, "list", f] as const };

export const auditLogsOptions = (f: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: auditKeys.list(f),
    queryFn: ({ pageParam }) => api.get<AuditLogListResponse>("/audit-logs", { query: { ...auditQuery(f), pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useAuditLogs = (f: AuditFilters) => useInfiniteQuery(auditLogsOptions(f));

/** GET /audit-logs/export: the filtered trail as CSV, saved as a file. */
export const downloadAuditCsv = async (f: AuditFilters) => {
  const blob = await api.get<Blob>("/audit-logs/export", { query: auditQuery(f), responseType: "blob" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `auditoria-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
