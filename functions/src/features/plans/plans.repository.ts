import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Plan, PlanInput } from "@atende/shared/domain/plans/plan";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { PLATFORM_PK, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";

const key = (id: number) => ({ pk: PLATFORM_PK, sk: `PLAN#${pad(id)}` });
const toPlan = mapItem<Plan>({
  id: true,
  name: true,
  users: true,
  connections: true,
  queues: true,
  value: true,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useInternal: true,
  createdAt: true,
  updatedAt: true,
});

export const createPlansRepository = (db: Db) => ({
  async create(input: PlanInput, now: Date): Promise<Plan> {
    const id = await nextId(db, null, "plan");
    const plan: Plan = { ...input, id, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(id), entity: "plan", ...plan } }));
    return plan;
  },
  async findById(id: number): Promise<Plan | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(id) }));
    return out.Item ? toPlan(out.Item) : null;
  },
  async update(plan: Plan): Promise<void> {
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(plan.id), entity: "plan", ...plan } }));
  },
  async remove(id: number): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: key(id) }));
  },
  /** All plans: a platform has few, one query of one partition. */
  async listAll(): Promise<Plan[]> {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
        ExpressionAttributeValues: { ":pk": PLATFORM_PK, ":p": "PLAN#" },
      }),
    );
    return (out.Items ?? []).map(toPlan);
  },
});
export type PlansRepository = ReturnType<typeof createPlansRepository>;
