import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { PLATFORM_PK, companyPk } from "../../platform/db/keys";

export type Setting = { key: string; value: string; companyId: number | null; updatedAt: string };

/** companyId null = platform-wide (operator) settings. */
const pkOf = (companyId: number | null) => (companyId === null ? PLATFORM_PK : companyPk(companyId));
const toSetting = (item: Record<string, unknown>): Setting => ({
  key: String(item.key),
  value: String(item.value ?? ""),
  companyId: (item.companyId as number | null) ?? null,
  updatedAt: String(item.updatedAt ?? ""),
});

export const createSettingsRepository = (db: Db) => ({
  async list(companyId: number | null): Promise<Setting[]> {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
        ExpressionAttributeValues: { ":pk": pkOf(companyId), ":p": "SETTING#" },
      }),
    );
    return (out.Items ?? []).map(toSetting);
  },
  async get(companyId: number | null, key: string): Promise<Setting | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: { pk: pkOf(companyId), sk: `SETTING#${key}` } }));
    return out.Item ? toSetting(out.Item) : null;
  },
  async put(companyId: number | null, key: string, value: string, now: Date): Promise<Setting> {
    const item = { pk: pkOf(companyId), sk: `SETTING#${key}`, entity: "setting", key, value, companyId, updatedAt: now.toISOString() };
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: item }));
    return toSetting(item);
  },
  async putMany(companyId: number | null, entries: Record<string, string>, now: Date): Promise<void> {
    const items = Object.entries(entries).map(([key, value]) => ({
      PutRequest: { Item: { pk: pkOf(companyId), sk: `SETTING#${key}`, entity: "setting", key, value, companyId, updatedAt: now.toISOString() } },
    }));
    for (let i = 0; i < items.length; i += 25) {
      await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: items.slice(i, i + 25) } }));
    }
  },
});
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
