import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Recurrence } from "@atende/shared/constants/business";
import type { ScheduleEntry } from "@atende/shared/domain/queues/queues";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { stripKeys } from "../../platform/db/strip";
import { setExpression } from "../../platform/db/update";

export type Company = {
  id: number;
  name: string;
  email: string;
  phone: string;
  planId: number | null;
  status: boolean;
  dueDate: string | null;
  recurrence: Recurrence;
  timezone: string;
  trialExpiration: string | null;
  document: string;
  billingName?: string;
  addressZipCode?: string;
  addressStreet?: string;
  addressState?: string;
  addressCity?: string;
  addressDistrict?: string;
  /** company working hours (schedule type 'company') */
  schedules?: ScheduleEntry[];
  createdAt: string;
  updatedAt: string;
};
export type NewCompany = Omit<Company, "id" | "createdAt" | "updatedAt">;

const key = (id: number) => ({ pk: companyPk(id), sk: "COMPANY" });
const listKeys = (id: number) => ({ gsi1pk: "PLATFORM#COMPANY", gsi1sk: pad(id) });
const toCompany = (item: Record<string, unknown>) => stripKeys(item) as unknown as Company;

export const createCompaniesRepository = (db: Db) => ({
  async create(input: NewCompany, now: Date): Promise<Company> {
    const id = await nextId(db, null, "company");
    const company: Company = { ...input, id, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...key(id), ...listKeys(id), entity: "company", ...company },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return company;
  },
  async findById(id: number): Promise<Company | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(id) }));
    return out.Item ? toCompany(out.Item) : null;
  },
  async update(id: number, patch: Partial<NewCompany>, now: Date): Promise<Company | null> {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(id),
        ConditionExpression: "attribute_exists(pk)",
        ...setExpression({ ...patch, updatedAt: now.toISOString() }),
        ReturnValues: "ALL_NEW",
      }),
    ).catch((e: Error) => {
      if (e.name === "ConditionalCheckFailedException") return { Attributes: undefined };
      throw e;
    });
    return out.Attributes ? toCompany(out.Attributes) : null;
  },
  async remove(id: number): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: key(id) }));
  },
  /** Operator listing, paged by id. */
  async listPage(limit: number, cursor?: string): Promise<{ items: Company[]; cursor?: string }> {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: "gsi1",
        KeyConditionExpression: "gsi1pk = :pk",
        ExpressionAttributeValues: { ":pk": "PLATFORM#COMPANY" },
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, "base64url").toString()) } : {}),
      }),
    );
    return {
      items: (out.Items ?? []).map(toCompany),
      cursor: out.LastEvaluatedKey ? Buffer.from(JSON.stringify(out.LastEvaluatedKey)).toString("base64url") : undefined,
    };
  },
});
export type CompaniesRepository = ReturnType<typeof createCompaniesRepository>;
