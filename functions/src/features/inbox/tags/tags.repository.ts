import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Tag } from "@atende/shared/domain/tags/tag";
import type { Db } from "../../../platform/db/client";
import { nextId } from "../../../platform/db/counters";
import { companyPk, pad } from "../../../platform/db/keys";
import { mergedIndexPage, type ItemFilter } from "../../../platform/db/merged-query";
import { queryPrefix } from "../../../platform/db/query-prefix";
import { mapItem } from "../../../platform/db/map-item";
import { transact, TxConditionFailed, type TxItem } from "../../../platform/db/transact";
import { setExpression } from "../../../platform/db/update";

/**
 * Keys (docs: tags):
 * - the tag: `CO#c` / `TAG#<id>`, listed A-Z on gsi1 `CO#c#TAG` / `<name lower>#<id>`; `ticketsCount` is a counter
 *   on this item, moved in the same transaction as the ticket whose tags change (see `linkItems`);
 * - the name guard `CO#c#TAGNAME#<name lower>` keeps names unique per company;
 * - one link per tagged ticket `CO#c#TAGTK#<tagId>` / `TK#<ticketId>`, so deleting a tag finds its tickets without a scan.
 */
const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `TAG#${pad(id)}` });
const nameKey = (companyId: number, name: string) => ({ pk: `${companyPk(companyId)}#TAGNAME#${name.trim().toLowerCase()}`, sk: "TAGNAME" });
const listPk = (companyId: number) => `${companyPk(companyId)}#TAG`;
const linkPk = (companyId: number, tagId: number) => `${companyPk(companyId)}#TAGTK#${tagId}`;
const linkKey = (companyId: number, tagId: number, ticketId: number) => ({ pk: linkPk(companyId, tagId), sk: `TK#${pad(ticketId)}` });
const indexFields = (t: Pick<Tag, "companyId" | "id" | "name">) => ({ gsi1pk: listPk(t.companyId), gsi1sk: `${t.name.toLowerCase()}#${pad(t.id)}`, nameLower: t.name.toLowerCase() });

/** A decrement racing a tag's deletion can leave a bare counter item behind: only real tags are tags. */
const isTag = (item: Record<string, unknown>) => item.entity === "tag";
const tagFields = mapItem<Tag>({
  id: true,
  companyId: true,
  name: true,
  color: true,
  kanban: true,
  ticketsCount: true,
  userId: true,
  createdAt: true,
  updatedAt: true,
});
const toTag = (item: Record<string, unknown>): Tag => ({ ...tagFields(item), ticketsCount: Math.max(0, Number(item.ticketsCount ?? 0)) });
const searchFilter = (term: string): ItemFilter | undefined =>
  term ? { expression: "contains(#nl, :term)", names: { "#nl": "nameLower" }, values: { ":term": term.toLowerCase() } } : undefined;

export type TagFields = { name: string; color: string; kanban: 0 | 1 };

export const createTagsRepository = (db: Db) => {
  const T = db.tableName;
  const guardPut = (companyId: number, name: string, id: number): TxItem => ({
    Put: { TableName: T, Item: { ...nameKey(companyId, name), entity: "tagName", tagId: id }, ConditionExpression: "attribute_not_exists(pk)" },
  });
  return {
    /** Creates the tag, or answers null when the name is taken in this company. */
    async create(companyId: number, input: TagFields & { userId: number | null }, now: Date): Promise<Tag | null> {
      const id = await nextId(db, companyId, "tag");
      const tag: Tag = { ...input, id, companyId, ticketsCount: 0, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      try {
        await transact(db, [guardPut(companyId, input.name, id), { Put: { TableName: T, Item: { ...key(companyId, id), ...indexFields(tag), entity: "tag", ...tag } } }]);
        return tag;
      } catch (e) {
        if (e instanceof TxConditionFailed) return null;
        throw e;
      }
    },
    async findById(companyId: number, id: number): Promise<Tag | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id), ConsistentRead: true }));
      return out.Item && isTag(out.Item) ? toTag(out.Item) : null;
    },
    /**
     * Saves name/colour/kanban (never the counter, which tickets move concurrently); moves the name guard when the
     * name changes. "duplicate" when the new name is taken, "gone" when the tag was deleted meanwhile.
     */
    async update(before: Tag, fields: TagFields & { updatedAt: string }): Promise<"ok" | "duplicate" | "gone"> {
      const renamed = nameKey(before.companyId, before.name).pk !== nameKey(before.companyId, fields.name).pk;
      const items: TxItem[] = renamed
        ? [guardPut(before.companyId, fields.name, before.id), { Delete: { TableName: T, Key: nameKey(before.companyId, before.name) } }]
        : [];
      const set = setExpression({ ...fields, ...indexFields({ ...before, name: fields.name }) });
      items.push({ Update: { TableName: T, Key: key(before.companyId, before.id), ...set, ConditionExpression: "attribute_exists(pk)" } });
      try {
        await transact(db, items);
        return "ok";
      } catch (e) {
        if (e instanceof TxConditionFailed) return renamed && e.failed.includes(0) ? "duplicate" : "gone";
        throw e;
      }
    },
    /** Deletes the tag and its name guard (its ticket links are removed by the service, ticket by ticket). */
    async remove(tag: Tag): Promise<void> {
      await transact(db, [
        { Delete: { TableName: T, Key: key(tag.companyId, tag.id) } },
        { Delete: { TableName: T, Key: nameKey(tag.companyId, tag.name) } },
      ]);
    },
    /** One page A-Z, optionally only names containing `term` (lower-case). */
    async page(companyId: number, term: string, limit: number, cursor?: string): Promise<{ items: Tag[]; next?: string }> {
      const out = await mergedIndexPage(db, [{ index: "gsi1", pk: listPk(companyId) }], { limit, cursor, filter: searchFilter(term), ascending: true });
      return { items: out.items.map(toTag), next: out.next };
    },
    /** How many tags match (a COUNT query). */
    async count(companyId: number, term: string): Promise<number> {
      const filter = searchFilter(term);
      let total = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            IndexName: "gsi1",
            KeyConditionExpression: "gsi1pk = :pk",
            ExpressionAttributeNames: filter?.names,
            ExpressionAttributeValues: { ":pk": listPk(companyId), ...filter?.values },
            ...(filter ? { FilterExpression: filter.expression } : {}),
            Select: "COUNT",
            ExclusiveStartKey: start,
          }),
        );
        total += out.Count ?? 0;
        start = out.LastEvaluatedKey;
      } while (start);
      return total;
    },
    /** A company has few tags: one query of its partition. */
    async listByCompany(companyId: number): Promise<Tag[]> {
      return (await queryPrefix(db, companyPk(companyId), "TAG#")).filter(isTag).map(toTag);
    },
    /**
     * The transaction items that keep links and counters right when a ticket's tags go from `before` to `after`.
     * Adding needs the tag to exist (a tag deleted meanwhile fails the whole ticket write); removing a tag that is
     * no longer live (being deleted) only drops the link.
     */
    linkItems(companyId: number, ticketId: number, before: readonly number[], after: readonly number[], live: ReadonlySet<number>): TxItem[] {
      const added = after.filter((id) => !before.includes(id));
      const removed = before.filter((id) => !after.includes(id));
      const counter = (tagId: number, delta: number, mustExist: boolean): TxItem => ({
        Update: {
          TableName: T,
          Key: key(companyId, tagId),
          UpdateExpression: "ADD #n :d",
          ExpressionAttributeNames: { "#n": "ticketsCount", ...(mustExist ? { "#e": "entity" } : {}) },
          ExpressionAttributeValues: { ":d": delta, ...(mustExist ? { ":tag": "tag" } : {}) },
          ...(mustExist ? { ConditionExpression: "#e = :tag" } : {}),
        },
      });
      return [
        ...added.flatMap((tagId): TxItem[] => [
          { Put: { TableName: T, Item: { ...linkKey(companyId, tagId, ticketId), entity: "tagTicket", tagId, ticketId } } },
          counter(tagId, 1, true),
        ]),
        ...removed.flatMap((tagId): TxItem[] => [
          { Delete: { TableName: T, Key: linkKey(companyId, tagId, ticketId) } },
          ...(live.has(tagId) ? [counter(tagId, -1, false)] : []),
        ]),
      ];
    },
    /** One page of the ids of the tickets carrying the tag. */
    async pageLinkedTicketIds(companyId: number, tagId: number, limit: number, start?: Record<string, unknown>) {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: T,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
          ExpressionAttributeValues: { ":pk": linkPk(companyId, tagId), ":p": "TK#" },
          Limit: limit,
          ExclusiveStartKey: start,
        }),
      );
      return { ticketIds: (out.Items ?? []).map((i) => Number(i.ticketId)), next: out.LastEvaluatedKey };
    },
    /** Drops a link whose ticket is gone. */
    async removeLink(companyId: number, tagId: number, ticketId: number): Promise<void> {
      await transact(db, [{ Delete: { TableName: T, Key: linkKey(companyId, tagId, ticketId) } }]);
    },
  };
};
export type TagsRepository = ReturnType<typeof createTagsRepository>;
