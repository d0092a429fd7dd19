import type { ReportExportInput, ReportExportView } from "@atende/shared/contracts/http/reports";
import type { Db } from "../../platform/db/client";
import { mapItem } from "../../platform/db/map-item";
import { createProgressJobsRepository, PROGRESS_JOB_FIELDS } from "../../platform/jobs/progress-jobs.repository";

/**
 * Report exports (docs/adr/0034-reports.md), progress jobs (platform/jobs/progress-jobs.repository.ts):
 * - export: `CO#<c>` / `REPORTEXPORT#<id>` (its filters, progress, where the file is); TTL two days after it expires;
 * - a finished export also sits on gsi3 `REPORT_EXPIRES#<yyyy-mm-dd>` / `<expiresAt>#<c>#<id>` (a platform partition
 *   per day, like the LGPD exports') so the daily sweep deletes expired files from storage without a scan.
 */

export type ReportExportRecord = ReportExportView & {
  companyId: number;
  requestedBy: number;
  filters: ReportExportInput;
  storageKey: string | null;
};
const toRecord = mapItem<ReportExportRecord>({ ...PROGRESS_JOB_FIELDS, format: true, rows: true, requestedBy: true, filters: true });
export const exportView = (r: ReportExportRecord): ReportExportView => ({
  id: r.id,
  format: r.format,
  status: r.status,
  progress: r.progress,
  rows: r.rows,
  downloadUrl: r.downloadUrl,
  expiresAt: r.expiresAt,
  error: r.error,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const createReportExportsRepository = (db: Db) =>
  createProgressJobsRepository<ReportExportRecord>(db, { sk: "REPORTEXPORT", entity: "reportExport", expiry: "REPORT_EXPIRES", toRecord });
export type ReportExportsRepository = ReturnType<typeof createReportExportsRepository>;
