import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { LgpdJobView } from "@atende/shared/contracts/http/lgpd";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";

/**
 * Background exports and erasures of one contact (large histories):
 * - job: `CO#<c>` / `LGPDJOB#<id>`; gsi1 `CO#<c>#LGPDJOBS#<contactId>` / `<createdAt>#<id>` (a contact's jobs:
 *   an erasure deletes that contact's exports too). TTL two days after it expires.
 * - finished exports also sit on gsi3 `LGPD_EXPIRES#<yyyy-mm-dd>` / `<expiresAt>#<c>#<id>` (a platform partition
 *   per day, like the campaigns' due index) so the daily sweep deletes expired ZIPs from storage without a scan.
 * While an erasure runs, its job holds the number and LID it is erasing (a re-run needs them once the contact
 * item is gone); they are removed when it finishes.
 */
const key = (companyId: number, id: string) => ({ pk: companyPk(companyId), sk: `LGPDJOB#${id}` });
const byContactPk = (companyId: number, contactId: number) => `${companyPk(companyId)}#LGPDJOBS#${contactId}`;
const expiryPk = (day: string) => `LGPD_EXPIRES#${day}`;

export type LgpdJobRecord = LgpdJobView & {
  companyId: number;
  requestedBy: number;
  /** the ZIP in storage (exports, when done) */
  storageKey: string | null;
  /** erasures only, while running */
  number: string | null;
  lid: string | null;
};
const toJob = mapItem<LgpdJobRecord>({
  id: true,
  kind: true,
  contactId: true,
  status: true,
  progress: true,
  downloadUrl: true,
  expiresAt: true,
  error: true,
  createdAt: true,
  updatedAt: true,
  companyId: true,
  requestedBy: true,
  storageKey: true,
  number: true,
  lid: true,
});
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
const ttlOf = (iso: string, extraDays: number) => Math.floor(new Date(iso).getTime() / 1000) + extraDays * 86_400;

export const createLgpdJobsRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async create(j: LgpdJobRecord): Promise<void> {
      await db.doc.send(
        new PutCommand({
          TableName: T,
          Item: { ...key(j.companyId, j.id), gsi1pk: byContactPk(j.companyId, j.contactId), gsi1sk: `${j.createdAt}#${j.id}`, entity: "lgpdJob", ...j, ttl: ttlOf(j.createdAt, 3) },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    },
    async find(companyId: number, id: string): Promise<LgpdJobRecord | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id), ConsistentRead: true }));
      return out.Item ? toJob(out.Item) : null;
    },
    async setProgress(companyId: number, id: string, progress: number, now: Date): Promise<void> {
      await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: key(companyId, id),
          UpdateExpression: "SET progress = :p, updatedAt = :u",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":p": progress, ":u": now.toISOString() },
        }),
      );
    },
    /** Marks an export done: where the ZIP is, until when; indexed for the expiry sweep. */
    async finishExport(companyId: number, id: string, fields: { storageKey: string; downloadUrl: string; expiresAt: string }, now: Date): Promise<LgpdJobRecord | null> {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: key(companyId, id),
          UpdateExpression: "SET #s = :done, progress = :p, storageKey = :k, downloadUrl = :d, expiresAt = :e, updatedAt = :u, gsi3pk = :xp, gsi3sk = :xs, #t = :ttl",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#s": "status", "#t": "ttl" },
          ExpressionAttributeValues: {
            ":done": "done",
            ":p": 100,
            ":k": fields.storageKey,
            ":d": fields.downloadUrl,
            ":e": fields.expiresAt,
            ":u": now.toISOString(),
            ":xp": expiryPk(fields.expiresAt.slice(0, 10)),
            ":xs": `${fields.expiresAt}#${companyId}#${id}`,
            ":ttl": ttlOf(fields.expiresAt, 2),
          },
          ReturnValues: "ALL_NEW",
        }),
      );
      return out.Attributes ? toJob(out.Attributes) : null;
    },
    /** Ends a job (erasure done, or any failure); forgets the number and LID an erasure carried. */
    async finish(companyId: number, id: string, status: "done" | "failed", error: string | null, now: Date): Promise<LgpdJobRecord | null> {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: key(companyId, id),
          UpdateExpression: "SET #s = :s, progress = :p, #e = :e, updatedAt = :u, #n = :null, lid = :null",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#s": "status", "#e": "error", "#n": "number" },
          ExpressionAttributeValues: { ":s": status, ":p": status === "done" ? 100 : 0, ":e": error, ":u": now.toISOString(), ":null": null },
          ReturnValues: "ALL_NEW",
        }),
      );
      return out.Attributes ? toJob(out.Attributes) : null;
    },
    /** A contact's jobs (its exports are deleted with it). */
    async listByContact(companyId: number, contactId: number): Promise<LgpdJobRecord[]> {
      const out = await db.doc.send(new QueryCommand({ TableName: T, IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk", ExpressionAttributeValues: { ":pk": byContactPk(companyId, contactId) } }));
      return (out.Items ?? []).map(toJob);
    },
    /** An export whose ZIP was deleted (expired, or its person erased): no download any more. */
    async discard(companyId: number, id: string): Promise<void> {
      await db.doc.send(new UpdateCommand({ TableName: T, Key: key(companyId, id), UpdateExpression: "SET #s = :x, storageKey = :null, downloadUrl = :null REMOVE gsi3pk, gsi3sk", ConditionExpression: "attribute_exists(pk)", ExpressionAttributeNames: { "#s": "status" }, ExpressionAttributeValues: { ":x": "failed", ":null": null } })).catch((e: Error) => {
        if (e.name !== "ConditionalCheckFailedException") throw e;
      });
    },
    /** Exports that expired on a day (up to `until`), for the sweep. */
    async listExpiredOn(day: string, until: string): Promise<LgpdJobRecord[]> {
      const items: LgpdJobRecord[] = [];
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
        items.push(...(out.Items ?? []).map(toJob));
        start = out.LastEvaluatedKey;
      } while (start);
      return items;
    },
  };
};
export type LgpdJobsRepository = ReturnType<typeof createLgpdJobsRepository>;
