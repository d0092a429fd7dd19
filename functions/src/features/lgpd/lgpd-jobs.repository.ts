import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { LgpdJobView } from "@atende/shared/contracts/http/lgpd";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";
import { createProgressJobsRepository, PROGRESS_JOB_FIELDS } from "../../platform/jobs/progress-jobs.repository";

/**
 * Background exports and erasures of one contact (large histories), progress jobs
 * (platform/jobs/progress-jobs.repository.ts):
 * - job: `CO#<c>` / `LGPDJOB#<id>`; gsi1 `CO#<c>#LGPDJOBS#<contactId>` / `<createdAt>#<id>` (a contact's jobs:
 *   an erasure deletes that contact's exports too). TTL two days after it expires.
 * - finished exports also sit on gsi3 `LGPD_EXPIRES#<yyyy-mm-dd>` / `<expiresAt>#<c>#<id>` (a platform partition
 *   per day, like the campaigns' due index) so the daily sweep deletes expired ZIPs from storage without a scan.
 * While an erasure runs, its job holds the number and LID it is erasing (a re-run needs them once the contact
 * item is gone); they are removed when it finishes.
 */
const byContactPk = (companyId: number, contactId: number) => `${companyPk(companyId)}#LGPDJOBS#${contactId}`;

export type LgpdJobRecord = LgpdJobView & {
  companyId: number;
  requestedBy: number;
  /** the ZIP in storage (exports, when done) */
  storageKey: string | null;
  /** erasures only, while running */
  number: string | null;
  lid: string | null;
};
const toJob = mapItem<LgpdJobRecord>({ ...PROGRESS_JOB_FIELDS, kind: true, contactId: true, requestedBy: true, number: true, lid: true });
export const jobView = (j: LgpdJobRecord): LgpdJobView => ({
  id: j.id,
  kind: j.kind,
  contactId: j.contactId,
  status: j.status,
  progress: j.progress,
  downloadUrl: j.downloadUrl,
  expiresAt: j.expiresAt,
  error: j.error,
  createdAt: j.createdAt,
  updatedAt: j.updatedAt,
});
/** LGPD jobs: the platform's progress jobs, plus a contact's jobs (gsi1). */
export const createLgpdJobsRepository = (db: Db) => {
  const jobs = createProgressJobsRepository<LgpdJobRecord>(db, {
    sk: "LGPDJOB",
    entity: "lgpdJob",
    expiry: "LGPD_EXPIRES",
    toRecord: toJob,
    indexes: (j) => ({ gsi1pk: byContactPk(j.companyId, j.contactId), gsi1sk: `${j.createdAt}#${j.id}` }),
  });
  return {
    ...jobs,
    /** A contact's jobs (its exports are deleted with it). */
    async listByContact(companyId: number, contactId: number): Promise<LgpdJobRecord[]> {
      const out = await db.doc.send(new QueryCommand({ TableName: db.tableName, IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk", ExpressionAttributeValues: { ":pk": byContactPk(companyId, contactId) } }));
      return (out.Items ?? []).map(toJob);
    },
  };
};
export type LgpdJobsRepository = ReturnType<typeof createLgpdJobsRepository>;
