import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";
import type { TxItem } from "../../platform/db/transact";
import { setExpression } from "../../platform/db/update";

/** The entity is defined once, in shared. */
export type { Company, NewCompany } from "@atende/shared/domain/companies/company";
import type { Company, NewCompany } from "@atende/shared/domain/companies/company";

const key = (id: number) => ({ pk: companyPk(id), sk: "COMPANY" });
const listKeys = (id: number) => ({ gsi1pk: "PLATFORM#COMPANY", gsi1sk: pad(id) });
const toCompany = mapItem<Company>({
  id: true,
  name: true,
  email: true,
  phone: true,
  planId: true,
  status: true,
  dueDate: true,
  recurrence: true,
  timezone: true,
  trialExpiration: true,
  document: true,
  billingName: true,
  addressZipCode: true,
  addressStreet: true,
  addressState: true,
  addressCity: true,
  addressDistrict: true,
  schedules: true,
  createdAt: true,
  updatedAt: true,
});
/**
 * Billing index (sparse, gsi2): a company whose next invoice is not issued yet, by due date. The invoices job
 * reads it instead of scanning companies and clears the entry once the period's invoice exists; a new due
 * date (payment, '+Vencimento', operator edit) puts the company back.
 */
const BILLING_PK = "PLATFORM#BILLING";
const billingKeys = (id: number, dueDate: string | null | undefined) => (dueDate ? { gsi2pk: BILLING_PK, gsi2sk: `${dueDate}#${pad(id)}` } : {});

export const createCompaniesRepository = (db: Db) => ({
  async create(input: NewCompany, now: Date): Promise<Company> {
    const id = await nextId(db, null, "company");
    const company: Company = { ...input, id, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...key(id), ...listKeys(id), ...billingKeys(id, company.dueDate), entity: "company", ...company },
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
        ...setExpression({ ...patch, updatedAt: now.toISOString(), ...billingKeys(id, patch.dueDate) }),
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
  /** Companies whose next invoice is not issued yet and whose due date is at or before `until` (ISO), oldest first. */
  async listAwaitingInvoice(until: string, limit: number, cursor?: Record<string, unknown>): Promise<{ items: Company[]; cursor?: Record<string, unknown> }> {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: "gsi2",
        KeyConditionExpression: "gsi2pk = :pk AND gsi2sk <= :until",
        ExpressionAttributeValues: { ":pk": BILLING_PK, ":until": `${until}#~` },
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: cursor } : {}),
      }),
    );
    return { items: (out.Items ?? []).map(toCompany), cursor: out.LastEvaluatedKey };
  },
  /** The period of `dueDate` is invoiced: out of the billing index, unless the due date moved meanwhile. */
  async clearAwaitingInvoice(id: number, dueDate: string | null): Promise<void> {
    await db.doc
      .send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key(id),
          UpdateExpression: "REMOVE gsi2pk, gsi2sk",
          ...(dueDate === null
            ? { ConditionExpression: "attribute_not_exists(#due) OR attribute_type(#due, :null)", ExpressionAttributeValues: { ":null": "NULL" } }
            : { ConditionExpression: "#due = :due", ExpressionAttributeValues: { ":due": dueDate } }),
          ExpressionAttributeNames: { "#due": "dueDate" },
        }),
      )
      .catch((e: Error) => {
        if (e.name !== "ConditionalCheckFailedException") throw e;
      });
  },
  /** Transaction item moving the due date from `from` to `to` (fails when it is no longer `from`: paid once, moved once). */
  dueDateMoveTx(id: number, from: string, to: string, now: Date): TxItem {
    return {
      Update: {
        TableName: db.tableName,
        Key: key(id),
        ConditionExpression: "#f0 = :from",
        ...(() => {
          const set = setExpression({ dueDate: to, updatedAt: now.toISOString(), ...billingKeys(id, to) });
          return { ...set, ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ":from": from } };
        })(),
      },
    };
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
