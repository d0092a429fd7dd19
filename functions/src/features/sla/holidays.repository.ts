import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { CompanyHoliday } from "@atende/shared/domain/service-levels/holidays";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";

/** A company's own holidays and closures (issue 13): `CO#<cid>` / `HOLIDAY#<id10>`, one small partition range. */
const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `HOLIDAY#${pad(id)}` });
const toHoliday = mapItem<CompanyHoliday>({ id: true, companyId: true, date: true, name: true, createdAt: true, updatedAt: true });

export const createHolidaysRepository = (db: Db) => ({
  async create(companyId: number, input: Pick<CompanyHoliday, "date" | "name">, now: Date): Promise<CompanyHoliday> {
    const id = await nextId(db, companyId, "holiday");
    const h: CompanyHoliday = { ...input, id, companyId, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(companyId, id), entity: "holiday", ...h } }));
    return h;
  },
  async findById(companyId: number, id: number): Promise<CompanyHoliday | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, id) }));
    return out.Item ? toHoliday(out.Item) : null;
  },
  async put(h: CompanyHoliday): Promise<void> {
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(h.companyId, h.id), entity: "holiday", ...h } }));
  },
  async remove(companyId: number, id: number): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: key(companyId, id) }));
  },
  async listByCompany(companyId: number): Promise<CompanyHoliday[]> {
    const items: CompanyHoliday[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
          ExpressionAttributeValues: { ":pk": companyPk(companyId), ":p": "HOLIDAY#" },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []).map(toHoliday));
      start = out.LastEvaluatedKey;
    } while (start);
    return items.sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
  },
});
export type HolidaysRepository = ReturnType<typeof createHolidaysRepository>;
