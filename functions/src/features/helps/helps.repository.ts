import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { HelpResponse } from "@atende/shared/contracts/http/helps";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { PLATFORM_PK, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";

export type Help = HelpResponse;
export type HelpInput = Pick<Help, "title" | "description" | "video">;

/** Help videos are platform-wide (the operator's): `PLATFORM` / `HELP#<id>`. */
const key = (id: number) => ({ pk: PLATFORM_PK, sk: `HELP#${pad(id)}` });
const toHelp = mapItem<Help>({
  id: true,
  title: true,
  description: true,
  video: true,
  createdAt: true,
  updatedAt: true,
});

export const createHelpsRepository = (db: Db) => ({
  async create(input: HelpInput, now: Date): Promise<Help> {
    const id = await nextId(db, null, "help");
    const help: Help = { ...input, id, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(id), entity: "help", ...help } }));
    return help;
  },
  async findById(id: number): Promise<Help | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(id) }));
    return out.Item ? toHelp(out.Item) : null;
  },
  async put(help: Help): Promise<void> {
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(help.id), entity: "help", ...help } }));
  },
  async remove(id: number): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: key(id) }));
  },
  /** A platform has tens of help videos: one query of one partition. */
  async listAll(): Promise<Help[]> {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
        ExpressionAttributeValues: { ":pk": PLATFORM_PK, ":p": "HELP#" },
      }),
    );
    return (out.Items ?? []).map(toHelp);
  },
});
export type HelpsRepository = ReturnType<typeof createHelpsRepository>;
