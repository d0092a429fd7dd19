import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { DEFAULT_QUEUE_DISTRIBUTION, type QueueDistribution } from "@atende/shared/contracts/http/service-levels";
import type { Db } from "../../platform/db/client";
import { companyPk, pad, PLATFORM_PK } from "../../platform/db/keys";
import { queryPrefix } from "../../platform/db/query-prefix";
import { transact } from "../../platform/db/transact";

const settingsKey = (companyId: number, queueId: number) => ({ pk: companyPk(companyId), sk: `QDIST#${pad(queueId)}` });
/** The queues of a company whose distribution is on (one read decides whether a ticket change needs a run). */
const onKey = (companyId: number) => ({ pk: companyPk(companyId), sk: "QDISTON" });
/** Companies that turned distribution on at least once: what the minute tick visits. */
const companyIndexKey = (companyId: number) => ({ pk: PLATFORM_PK, sk: `QDISTCO#${pad(companyId)}` });

export type QueueDistributionRecord = QueueDistribution & { queueId: number };

export const createDistributionRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async get(companyId: number, queueId: number): Promise<QueueDistribution> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: settingsKey(companyId, queueId) }));
      return out.Item ? { mode: out.Item.mode, ownAttendant: Boolean(out.Item.ownAttendant), ownAttendantMinutes: Number(out.Item.ownAttendantMinutes ?? 0) } : { ...DEFAULT_QUEUE_DISTRIBUTION };
    },
    async list(companyId: number): Promise<QueueDistributionRecord[]> {
      return (await queryPrefix(db, companyPk(companyId), "QDIST#")).map((i) => ({
        queueId: Number(i.queueId),
        mode: i.mode as QueueDistribution["mode"],
        ownAttendant: Boolean(i.ownAttendant),
        ownAttendantMinutes: Number(i.ownAttendantMinutes ?? 0),
      }));
    },
    /** The queue's settings, its place in the company's "on" set and the company in the tick's index, together. */
    async save(companyId: number, queueId: number, s: QueueDistribution, now: Date): Promise<void> {
      const on = s.mode !== "off";
      await transact(db, [
        { Put: { TableName: T, Item: { ...settingsKey(companyId, queueId), entity: "queueDistribution", companyId, queueId, ...s, updatedAt: now.toISOString() } } },
        {
          Update: {
            TableName: T,
            Key: onKey(companyId),
            UpdateExpression: on ? "ADD #q :q" : "DELETE #q :q",
            ExpressionAttributeNames: { "#q": "queues" },
            ExpressionAttributeValues: { ":q": new Set([queueId]) },
          },
        },
        ...(on ? [{ Put: { TableName: T, Item: { ...companyIndexKey(companyId), entity: "distributionCompany", companyId } } }] : []),
      ]);
    },
    async remove(companyId: number, queueId: number, now: Date): Promise<void> {
      await this.save(companyId, queueId, DEFAULT_QUEUE_DISTRIBUTION, now);
    },
    /** Queues of the company with distribution on. */
    async queuesOn(companyId: number): Promise<number[]> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: onKey(companyId) }));
      const set = out.Item?.queues as Set<number> | undefined;
      return set ? [...set].map(Number) : [];
    },
    /** Companies the tick visits. */
    async companies(): Promise<number[]> {
      const ids: number[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)", ExpressionAttributeValues: { ":pk": PLATFORM_PK, ":p": "QDISTCO#" }, ExclusiveStartKey: start }),
        );
        ids.push(...(out.Items ?? []).map((i) => Number(i.companyId)));
        start = out.LastEvaluatedKey;
      } while (start);
      return ids;
    },
  };
};
export type DistributionRepository = ReturnType<typeof createDistributionRepository>;
