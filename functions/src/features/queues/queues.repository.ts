import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { stripKeys } from "../../platform/db/strip";

export type ScheduleEntry = { weekday: string; weekdayEn: string; startTime: string; endTime: string };
export type Queue = {
  id: number;
  companyId: number;
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  integrationId: number | null;
  promptId: number | null;
  schedules: ScheduleEntry[];
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
};
export type NewQueue = Omit<Queue, "id" | "companyId" | "createdAt" | "updatedAt">;

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `QUEUE#${pad(id)}` });
const toQueue = (item: Record<string, unknown>) => stripKeys(item) as unknown as Queue;

export const createQueuesRepository = (db: Db) => ({
  async create(companyId: number, input: NewQueue, now: Date): Promise<Queue> {
    const id = await nextId(db, companyId, "queue");
    const queue: Queue = { ...input, id, companyId, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(companyId, id), entity: "queue", ...queue } }));
    return queue;
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
});
export type QueuesRepository = ReturnType<typeof createQueuesRepository>;
