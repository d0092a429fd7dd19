import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
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

/** One run per queue at a time (docs/adr/0032): the lease, and "dirty" when a run was asked for meanwhile. */
const leaseKey = (companyId: number, queueId: number) => ({ pk: companyPk(companyId), sk: `QDISTLEASE#${pad(queueId)}` });
const conditionFailed = (e: unknown) => (e as Error).name === "ConditionalCheckFailedException";

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
    /**
     * Takes the queue's run lease (free, or expired after `ttlMs`). When another run holds it, marks it dirty (the
     * holder runs once more before letting go) and answers false; true: we hold it.
     */
    async acquire(companyId: number, queueId: number, owner: string, now: Date, ttlMs: number): Promise<boolean> {
      for (let i = 0; i < 3; i++) {
        try {
          await db.doc.send(
            new PutCommand({
              TableName: T,
              Item: { ...leaseKey(companyId, queueId), entity: "distributionLease", owner, until: now.getTime() + ttlMs, dirty: false },
              ConditionExpression: "attribute_not_exists(pk) OR #until < :now",
              ExpressionAttributeNames: { "#until": "until" },
              ExpressionAttributeValues: { ":now": now.getTime() },
            }),
          );
          return true;
        } catch (e) {
          if (!conditionFailed(e)) throw e;
        }
        try {
          await db.doc.send(
            new UpdateCommand({ TableName: T, Key: leaseKey(companyId, queueId), UpdateExpression: "SET dirty = :t", ConditionExpression: "attribute_exists(pk)", ExpressionAttributeValues: { ":t": true } }),
          );
          return false;
        } catch (e) {
          if (!conditionFailed(e)) throw e; // released meanwhile: try to take it again
        }
      }
      return false;
    },
    /**
     * Lets the lease go unless a run was asked for meanwhile: then clears the mark and answers false (run again).
     * `force`: lets it go whatever the mark (the caller queues another run itself).
     */
    async release(companyId: number, queueId: number, owner: string, force = false): Promise<boolean> {
      try {
        await db.doc.send(
          new DeleteCommand({
            TableName: T,
            Key: leaseKey(companyId, queueId),
            ConditionExpression: force ? "#owner = :me" : "#owner = :me AND dirty = :f",
            ExpressionAttributeNames: { "#owner": "owner" },
            ExpressionAttributeValues: force ? { ":me": owner } : { ":me": owner, ":f": false },
          }),
        );
        return true;
      } catch (e) {
        if (!conditionFailed(e)) throw e;
        if (force) return true;
      }
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: leaseKey(companyId, queueId),
            UpdateExpression: "SET dirty = :f",
            ConditionExpression: "#owner = :me",
            ExpressionAttributeNames: { "#owner": "owner" },
            ExpressionAttributeValues: { ":me": owner, ":f": false },
          }),
        );
        return false;
      } catch (e) {
        if (!conditionFailed(e)) throw e;
        return true; // our lease expired and someone else holds it: theirs to run
      }
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
