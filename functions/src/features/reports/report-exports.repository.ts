import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { ReportExportInput, ReportExportView } from "@atende/shared/contracts/http/reports";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";

/**
 * Report exports (docs/adr/0034-reports.md):
 * - export: `CO#<c>` / `REPORTEXPORT#<id>` (its filters, progress, where the file is); TTL two days after it expires;
 * - a finished export also sits on gsi3 `REPORT_EXPIRES#<yyyy-mm-dd>` / `<expiresAt>#<c>#<id>` (a platform partition
 *   per day, like the LGPD exports') so the daily sweep deletes expired files from storage without a scan.
 */
const key = (companyId: number, id: string) => ({ pk: companyPk(companyId), sk: `REPORTEXPORT#${id}` });
const expiryPk = (day: string) => `REPORT_EXPIRES#${day}`;
const ttlOf = (iso: string, extraDays: number) => Math.floor(new Date(iso).getTime() / 1000) + extraDays * 86_400;

export type ReportExportRecord = ReportExportView & {
  companyId: number;
  requestedBy: number;
  filters: ReportExportInput;
  storageKey: string | null;
};
const toRecord = mapItem<ReportExportRecord>({
  id: true,
  format: true,
  status: true,
  progress: true,
  rows: true,
  downloadUrl: true,
  expiresAt: true,
  error: true,
  createdAt: true,
  updatedAt: true,
  companyId: true,
  requestedBy: true,
  filters: true,
  storageKey: true,
});
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

export const createReportExportsRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async create(r: ReportExportRecord): Promise<void> {
      await db.doc.send(
        new PutCommand({ TableName: T, Item: { ...key(r.companyId, r.id), entity: "reportExport", ...r, ttl: ttlOf(r.createdAt, 3) }, ConditionExpression: "attribute_not_exists(pk)" }),
      );
    },
    async find(companyId: number, id: string): Promise<ReportExportRecord | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id), ConsistentRead: true }));
      return out.Item ? toRecord(out.Item) : null;
    },
    async setProgress(companyId: number, id: string, progress: number, rows: number, now: Date): Promise<ReportExportRecord | null> {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: key(companyId, id),
          UpdateExpression: "SET progress = :p, #rows = :r, updatedAt = :u",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#rows": "rows" },
          ExpressionAttributeValues: { ":p": progress, ":r": rows, ":u": now.toISOString() },
          ReturnValues: "ALL_NEW",
        }),
      );
      return out.Attributes ? toRecord(out.Attributes) : null;
    },
    /** Done: where the file is, until when; indexed for the expiry sweep. */
    async finish(companyId: number, id: string, f: { storageKey: string; downloadUrl: string; expiresAt: string; rows: number }, now: Date): Promise<ReportExportRecord | null> {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: key(companyId, id),
          UpdateExpression: "SET #s = :done, progress = :p, #rows = :r, storageKey = :k, downloadUrl = :d, expiresAt = :e, updatedAt = :u, gsi3pk = :xp, gsi3sk = :xs, #t = :ttl",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#s": "status", "#t": "ttl", "#rows": "rows" },
          ExpressionAttributeValues: {
            ":done": "done",
            ":p": 100,
            ":r": f.rows,
            ":k": f.storageKey,
            ":d": f.downloadUrl,
            ":e": f.expiresAt,
            ":u": now.toISOString(),
            ":xp": expiryPk(f.expiresAt.slice(0, 10)),
            ":xs": `${f.expiresAt}#${companyId}#${id}`,
            ":ttl": ttlOf(f.expiresAt, 2),
          },
          ReturnValues: "ALL_NEW",
        }),
      );
      return out.Attributes ? toRecord(out.Attributes) : null;
    },
    async fail(companyId: number, id: string, error: string, now: Date): Promise<ReportExportRecord | null> {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: key(companyId, id),
          UpdateExpression: "SET #s = :f, #e = :e, updatedAt = :u",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#s": "status", "#e": "error" },
          ExpressionAttributeValues: { ":f": "failed", ":e": error, ":u": now.toISOString() },
          ReturnValues: "ALL_NEW",
        }),
      );
      return out.Attributes ? toRecord(out.Attributes) : null;
    },
    /** The file was deleted (expired): no download any more. */
    async expire(companyId: number, id: string): Promise<void> {
      await db.doc
        .send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, id),
            UpdateExpression: "SET #s = :x, #e = :err, storageKey = :null, downloadUrl = :null REMOVE gsi3pk, gsi3sk",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeNames: { "#s": "status", "#e": "error" },
            ExpressionAttributeValues: { ":x": "failed", ":err": "expired", ":null": null },
          }),
        )
        .catch((e: Error) => {
          if (e.name !== "ConditionalCheckFailedException") throw e;
        });
    },
    /** Exports that expired on a day (up to `until`), for the sweep. */
    async listExpiredOn(day: string, until: string): Promise<ReportExportRecord[]> {
      const items: ReportExportRecord[] = [];
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
        items.push(...(out.Items ?? []).map(toRecord));
        start = out.LastEvaluatedKey;
      } while (start);
      return items;
    },
  };
};
export type ReportExportsRepository = ReturnType<typeof createReportExportsRepository>;
