import { GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import type { ScheduleEntry } from "@atende/shared/domain/queues/queues";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";
import { AppError } from "../../platform/errors";
import { forgetMemoized, memoized, seedMemoized } from "../../platform/unit-of-work";

export type { ScheduleEntry };
/** The entity is defined once, in shared (the stored record = the view type + timestamps). */
export type { NewQueue, Queue } from "@atende/shared/domain/queues/queue";
import type { NewQueue, Queue } from "@atende/shared/domain/queues/queue";
type TransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `QUEUE#${pad(id)}` });
/** one read of a queue per unit of work (an inbound message: the SLA planner and the bot resolver, ADR 0039) */
const memoKey = (companyId: number, id: number) => `queue:${companyId}:${id}`;
/** Uniqueness guards: one item per queue name and per colour within the company (case-insensitive). */
const nameGuard = (companyId: number, name: string) => ({ pk: companyPk(companyId), sk: `QUEUENAME#${name.trim().toLowerCase()}` });
const colorGuard = (companyId: number, color: string) => ({ pk: companyPk(companyId), sk: `QUEUECOLOR#${color.trim().toUpperCase()}` });
const toQueue = mapItem<Queue>({
  id: true,
  companyId: true,
  name: true,
  color: true,
  greetingMessage: true,
  outOfHoursMessage: true,
  orderQueue: true,
  integrationId: true,
  flowId: true,
  promptId: true,
  schedules: true,
  mediaPath: true,
  mediaName: true,
  sla: true,
  createdAt: true,
  updatedAt: true,
});

/** Maps a cancelled transaction to the guard that failed (by position). */
const guardFailure = (e: unknown, positions: { name?: number; color?: number }): AppError | null => {
  const err = e as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (err.name !== "TransactionCanceledException") return null;
  const failed = (i?: number) => i !== undefined && err.CancellationReasons?.[i]?.Code === "ConditionalCheckFailed";
  if (failed(positions.color)) return new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
  if (failed(positions.name)) return new AppError("ERR_DUPLICATED_NAME");
  return new AppError("ERR_NOT_FOUND");
};

export const createQueuesRepository = (db: Db) => {
  const guardPut = (k: { pk: string; sk: string }, queueId: number): TransactItem => ({
    Put: { TableName: db.tableName, Item: { ...k, entity: "queueGuard", queueId }, ConditionExpression: "attribute_not_exists(pk)" },
  });
  const guardDelete = (k: { pk: string; sk: string }): TransactItem => ({ Delete: { TableName: db.tableName, Key: k } });

  return {
    /** Creates the queue with its name and colour guards: ERR_DUPLICATED_NAME / ERR_QUEUE_COLOR_ALREADY_EXISTS. */
    async create(companyId: number, input: NewQueue, now: Date): Promise<Queue> {
      const id = await nextId(db, companyId, "queue");
      const queue: Queue = { ...input, id, companyId, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      try {
        await db.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              guardPut(nameGuard(companyId, queue.name), id),
              guardPut(colorGuard(companyId, queue.color), id),
              { Put: { TableName: db.tableName, Item: { ...key(companyId, id), entity: "queue", ...queue } } },
            ],
          }),
        );
      } catch (e) {
        throw guardFailure(e, { name: 0, color: 1 }) ?? e;
      }
      return queue;
    },
    /**
     * The company's queues as read at `readAt` by a list of them (the inbox directory's, reused ≤ 1 s): inside a unit of
     * work `findById` answers from them while they are at most a second old (docs/adr/0058), instead of reading the queue.
     */
    remember(companyId: number, queues: Queue[], readAt: number): void {
      for (const q of queues) if (q.companyId === companyId) seedMemoized(memoKey(companyId, q.id), q, readAt);
    },
    /** Inside a unit of work (platform/unit-of-work.ts) read once, for at most a second; its own writes read it again. */
    findById(companyId: number, id: number): Promise<Queue | null> {
      return memoized(memoKey(companyId, id), async () => {
        const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, id) }));
        return out.Item ? toQueue(out.Item) : null;
      });
    },
    /** Replaces the queue, moving its name/colour guards when they change. */
    async replace(before: Queue, next: Queue): Promise<void> {
      const { companyId, id } = before;
      const items: TransactItem[] = [];
      const positions: { name?: number; color?: number } = {};
      if (nameGuard(companyId, before.name).sk !== nameGuard(companyId, next.name).sk) {
        positions.name = items.push(guardPut(nameGuard(companyId, next.name), id)) - 1;
        items.push(guardDelete(nameGuard(companyId, before.name)));
      }
      if (colorGuard(companyId, before.color).sk !== colorGuard(companyId, next.color).sk) {
        positions.color = items.push(guardPut(colorGuard(companyId, next.color), id)) - 1;
        items.push(guardDelete(colorGuard(companyId, before.color)));
      }
      items.push({
        Put: {
          TableName: db.tableName,
          Item: { ...key(companyId, id), entity: "queue", ...next },
          ConditionExpression: "attribute_exists(pk)",
        },
      });
      try {
        await db.doc.send(new TransactWriteCommand({ TransactItems: items }));
      } catch (e) {
        throw guardFailure(e, positions) ?? e;
      } finally {
        forgetMemoized(memoKey(companyId, id));
      }
    },
    async remove(queue: Queue): Promise<void> {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: db.tableName, Key: key(queue.companyId, queue.id) } },
            guardDelete(nameGuard(queue.companyId, queue.name)),
            guardDelete(colorGuard(queue.companyId, queue.color)),
          ],
        }),
      );
      forgetMemoized(memoKey(queue.companyId, queue.id));
    },
    /** A company has few queues (plan-limited): one query of its partition. */
    async listByCompany(companyId: number): Promise<Queue[]> {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
          ExpressionAttributeValues: { ":pk": companyPk(companyId), ":p": "QUEUE#" },
        }),
      );
      return (out.Items ?? []).map(toQueue);
    },
  };
};
export type QueuesRepository = ReturnType<typeof createQueuesRepository>;
