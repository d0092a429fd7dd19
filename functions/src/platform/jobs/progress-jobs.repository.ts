import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../db/client";
import { companyPk } from "../db/keys";
import type { RecordFields } from "../db/map-item";
import { setExpression } from "../db/update";
import type { MediaStore } from "../storage/media-store.port";

/** What every background job with progress and a file to download has (report exports, LGPD exports and erasures). */
export type ProgressJobRecord = {
  id: string;
  companyId: number;
  status: "running" | "done" | "failed";
  progress: number;
  downloadUrl: string | null;
  expiresAt: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  /** the file in storage, once done */
  storageKey: string | null;
};

/** The fields every progress job has, for a kind's `mapItem` (spread, then the kind's own fields). */
export const PROGRESS_JOB_FIELDS: RecordFields<ProgressJobRecord> = {
  id: true,
  companyId: true,
  status: true,
  progress: true,
  downloadUrl: true,
  expiresAt: true,
  error: true,
  createdAt: true,
  updatedAt: true,
  storageKey: true,
};

/** A job as it starts: running, at 0 %, no file yet. */
export const startingJob = (id: string, companyId: number, now: Date): ProgressJobRecord => ({
  id,
  companyId,
  status: "running",
  progress: 0,
  downloadUrl: null,
  expiresAt: null,
  error: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  storageKey: null,
});

/** One kind of job: where its items live and how an item reads back. */
export type ProgressJobKind<R extends ProgressJobRecord> = {
  /** sort-key prefix under the company: `CO#<c>` / `<sk>#<id>` */
  sk: string;
  /** the item's `entity` attribute */
  entity: string;
  /** expiry index partition prefix: a finished job's file sits on gsi3 `<expiry>#<yyyy-mm-dd>` / `<expiresAt>#<c>#<id>` */
  expiry: string;
  toRecord: (item: Record<string, unknown>) => R;
  /** more index attributes written with the job (e.g. gsi1 by contact) */
  indexes?: (r: R) => Record<string, unknown>;
};

const ttlOf = (iso: string, extraDays: number) => Math.floor(new Date(iso).getTime() / 1000) + extraDays * 86_400;

/**
 * Jobs that run in the background, report progress and end with a file kept for a while (docs/adr/0030, 0034):
 * - job: `CO#<c>` / `<sk>#<id>`; TTL three days after creation, two days after the file expires once done;
 * - a finished job also sits on gsi3 `<expiry>#<yyyy-mm-dd>` / `<expiresAt>#<c>#<id>` (a platform partition per day)
 *   so the daily sweep deletes expired files from storage without a scan.
 * Every change but `dropFile` requires the job to exist (a missing one throws DynamoDB's condition failure).
 */
export const createProgressJobsRepository = <R extends ProgressJobRecord>(db: Db, kind: ProgressJobKind<R>) => {
  const T = db.tableName;
  const key = (companyId: number, id: string) => ({ pk: companyPk(companyId), sk: `${kind.sk}#${id}` });
  const expiryPk = (day: string) => `${kind.expiry}#${day}`;
  const set = async (companyId: number, id: string, fields: Record<string, unknown>): Promise<R | null> => {
    const expr = setExpression(fields);
    const out = await db.doc.send(new UpdateCommand({ TableName: T, Key: key(companyId, id), ...expr, ConditionExpression: "attribute_exists(pk)", ReturnValues: "ALL_NEW" }));
    return out.Attributes ? kind.toRecord(out.Attributes) : null;
  };
  return {
    async create(r: R): Promise<void> {
      await db.doc.send(
        new PutCommand({
          TableName: T,
          Item: { ...key(r.companyId, r.id), ...kind.indexes?.(r), entity: kind.entity, ...r, ttl: ttlOf(r.createdAt, 3) },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    },
    async find(companyId: number, id: string): Promise<R | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id), ConsistentRead: true }));
      return out.Item ? kind.toRecord(out.Item) : null;
    },
    /** Changes some fields (progress, an end status, an error ...) and `updatedAt`; the job as it is now. */
    async update(companyId: number, id: string, fields: Partial<R>, now: Date): Promise<R | null> {
      return set(companyId, id, { ...fields, updatedAt: now.toISOString() });
    },
    /** Done: where the file is, until when (plus any other fields); indexed for the expiry sweep. */
    async finishWithFile(companyId: number, id: string, file: { storageKey: string; downloadUrl: string; expiresAt: string } & Partial<R>, now: Date): Promise<R | null> {
      return set(companyId, id, {
        status: "done",
        progress: 100,
        ...file,
        updatedAt: now.toISOString(),
        gsi3pk: expiryPk(file.expiresAt.slice(0, 10)),
        gsi3sk: `${file.expiresAt}#${companyId}#${id}`,
        ttl: ttlOf(file.expiresAt, 2),
      });
    },
    /** The file was deleted (expired, or its person erased): failed, no download any more. A missing job is fine. */
    async dropFile(companyId: number, id: string, fields: Partial<R> = {}): Promise<void> {
      const expr = setExpression({ status: "failed", storageKey: null, downloadUrl: null, ...fields });
      await db.doc
        .send(new UpdateCommand({ TableName: T, Key: key(companyId, id), ...expr, UpdateExpression: `${expr.UpdateExpression} REMOVE gsi3pk, gsi3sk`, ConditionExpression: "attribute_exists(pk)" }))
        .catch((e: Error) => {
          if (e.name !== "ConditionalCheckFailedException") throw e;
        });
    },
    /** Jobs whose file expired on a day (up to `until`), for the sweep. */
    async listExpiredOn(day: string, until: string): Promise<R[]> {
      const items: R[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            IndexName: "gsi3",
            KeyConditionExpression: "gsi3pk = :pk AND gsi3sk <= :u",
            ExpressionAttributeValues: { ":pk": expiryPk(day), ":u": `${until}~` },
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(out.Items ?? []).map(kind.toRecord));
        start = out.LastEvaluatedKey;
      } while (start);
      return items;
    },
  };
};
export type ProgressJobsRepository<R extends ProgressJobRecord> = ReturnType<typeof createProgressJobsRepository<R>>;

/** A finished job's file may be downloaded: done, stored, and not expired at `now`. */
export const isDownloadable = (job: ProgressJobRecord | null, now: Date): job is ProgressJobRecord & { storageKey: string; expiresAt: string } =>
  !!job && job.status === "done" && !!job.storageKey && !!job.expiresAt && job.expiresAt >= now.toISOString();

/**
 * Daily (or every tick): deletes the files of jobs that expired (today's and yesterday's index days) and marks
 * each job as without a file (`dropFields` added). The number of jobs swept.
 */
export const sweepExpiredJobFiles = async <R extends ProgressJobRecord>(
  jobs: Pick<ProgressJobsRepository<R>, "listExpiredOn" | "dropFile">,
  media: Pick<MediaStore, "delete">,
  now: Date,
  dropFields: Partial<R> = {},
): Promise<number> => {
  let n = 0;
  for (const day of [new Date(now.getTime() - 86_400_000), now].map((d) => d.toISOString().slice(0, 10))) {
    for (const job of await jobs.listExpiredOn(day, now.toISOString())) {
      if (job.storageKey) await media.delete(job.storageKey);
      await jobs.dropFile(job.companyId, job.id, dropFields);
      n++;
    }
  }
  return n;
};
