import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { queryPrefix } from "../../platform/db/query-prefix";
import { mapItem } from "../../platform/db/map-item";
import { setExpression } from "../../platform/db/update";
import type { QueueOption } from "@atende/shared/domain/queue-options/queue-option";

export type NewQueueOption = Omit<QueueOption, "id" | "companyId" | "createdAt" | "updatedAt">;

/**
 * Keys (docs/adr/0006-admin.md): `CO#<cid>` / `QOPT#<queueId>#<parentId or 0>#<id>`, so the children of a node
 * are one prefix query and a whole queue's tree is one prefix query; gsi1 `CO#<cid>#QOPT` / `<id>` finds a node by id.
 */
const sortKey = (queueId: number, parentId: number | null, id: number) => `QOPT#${pad(queueId)}#${pad(parentId ?? 0)}#${pad(id)}`;
const childrenPrefix = (queueId: number, parentId: number | null) => `QOPT#${pad(queueId)}#${pad(parentId ?? 0)}#`;
const byIdKeys = (companyId: number, id: number) => ({ gsi1pk: `${companyPk(companyId)}#QOPT`, gsi1sk: pad(id) });
const toOption = mapItem<QueueOption>({
  id: true,
  companyId: true,
  queueId: true,
  parentId: true,
  title: true,
  message: true,
  option: true,
  mediaPath: true,
  mediaName: true,
  createdAt: true,
  updatedAt: true,
});

export const createQueueOptionsRepository = (db: Db) => {
  const queryAll = async (companyId: number, prefix: string): Promise<QueueOption[]> => {
    return (await queryPrefix(db, companyPk(companyId), prefix)).map(toOption);
  };
  const itemKey = (o: Pick<QueueOption, "companyId" | "queueId" | "parentId" | "id">) => ({
    pk: companyPk(o.companyId),
    sk: sortKey(o.queueId, o.parentId, o.id),
  });

  return {
    async create(companyId: number, input: NewQueueOption, now: Date): Promise<QueueOption> {
      const id = await nextId(db, companyId, "queueOption");
      const option: QueueOption = { ...input, id, companyId, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      await db.doc.send(
        new PutCommand({ TableName: db.tableName, Item: { ...itemKey(option), ...byIdKeys(companyId, id), entity: "queueOption", ...option } }),
      );
      return option;
    },
    async findById(companyId: number, id: number): Promise<QueueOption | null> {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          IndexName: "gsi1",
          KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
          ExpressionAttributeValues: { ":pk": byIdKeys(companyId, id).gsi1pk, ":sk": pad(id) },
        }),
      );
      const item = out.Items?.[0];
      if (!item) return null;
      // the index is eventually consistent: read the item itself for the current values
      const fresh = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }));
      return fresh.Item ? toOption(fresh.Item) : null;
    },
    /** Direct children of a node (parentId null = the queue's top level), ordered by option number then id. */
    async listChildren(companyId: number, queueId: number, parentId: number | null): Promise<QueueOption[]> {
      const items = await queryAll(companyId, childrenPrefix(queueId, parentId));
      return items.sort((a, b) => Number(a.option) - Number(b.option) || a.id - b.id);
    },
    /** The whole tree of a queue (for deletes). */
    async listByQueue(companyId: number, queueId: number): Promise<QueueOption[]> {
      return queryAll(companyId, `QOPT#${pad(queueId)}#`);
    },
    async update(option: QueueOption, patch: Partial<Pick<QueueOption, "title" | "message" | "option" | "mediaPath" | "mediaName">>, now: Date) {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: itemKey(option),
          ConditionExpression: "attribute_exists(pk)",
          ...setExpression({ ...patch, updatedAt: now.toISOString() }),
          ReturnValues: "ALL_NEW",
        }),
      );
      return toOption(out.Attributes ?? {});
    },
    async removeMany(options: QueueOption[]): Promise<void> {
      for (let i = 0; i < options.length; i += 25) {
        await db.doc.send(
          new BatchWriteCommand({
            RequestItems: { [db.tableName]: options.slice(i, i + 25).map((o) => ({ DeleteRequest: { Key: itemKey(o) } })) },
          }),
        );
      }
    },
  };
};
export type QueueOptionsRepository = ReturnType<typeof createQueueOptionsRepository>;
