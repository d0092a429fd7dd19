import type { ReportExportView } from "@atende/shared/contracts/http/reports";
import type { Db } from "../../platform/db/client";
import type { Logger } from "../../platform/logger";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { MediaStore } from "../../platform/storage/media-store.port";
import { createReportExportsRepository } from "./report-exports.repository";
import { reportsRoutes } from "./reports.routes";
import { createReportsService, REPORT_EXPORT_JOB, type ReportDirectory, type ReportExportJobPayload, type ReportInbox, type ReportsService } from "./reports.service";

/**
 * Reports (issue 13 item 6; docs/adr/0034-reports.md): GET /ticket/reports, CSAT, CSV/XLSX exports kept for a day.
 * Reads the inbox's attention cycles through its facade; owns only its export records.
 */
export const createReportsModule = (deps: {
  db: Db;
  inbox: ReportInbox;
  directory: ReportDirectory;
  media: MediaStore;
  jobQueue: JobQueue;
  /** realtime to some users of the company */
  publishToUsers: (companyId: number, userIds: number[], event: "report", data: unknown) => Promise<unknown>;
  guards: Guards;
  logger: Logger;
  clock: () => Date;
  inlineRows?: number;
}): FeatureModule<ReportsService> => {
  const service = createReportsService({
    inbox: deps.inbox,
    directory: deps.directory,
    exports: createReportExportsRepository(deps.db),
    media: deps.media,
    jobQueue: deps.jobQueue,
    publishExport: (companyId, userId, job: ReportExportView) => deps.publishToUsers(companyId, [userId], "report", { action: "update", job }),
    logger: deps.logger,
    clock: deps.clock,
    inlineRows: deps.inlineRows,
  });
  const routes = reportsRoutes(service, deps.guards);
  return {
    service,
    /** /ticket/reports beside the inbox's /ticket (mounted after it), /reports */
    routes: [
      { path: "/ticket", app: routes.ticket },
      { path: "/reports", app: routes.reports },
    ],
    jobs: {
      named: {
        // enqueued only by this module, so the payload has this shape
        [REPORT_EXPORT_JOB]: (companyId, payload) => service.runExportJob(companyId, payload as ReportExportJobPayload),
      },
    },
    // the expired files' index is two small partitions: read every tick, so a file is gone within a minute of expiry
    tick: [{ name: "report-exports-expiry", run: async (now) => void (await service.sweepExpired(now)) }],
  };
};
