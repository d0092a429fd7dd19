import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { ContactListItemResponse, ContactListResponse } from "@atende/shared/contracts/http/contact-lists";
import { batchGetAll } from "../../platform/db/batch-get";
import type { Db } from "../../platform/db/client";
import { nextId, nextIds } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mergedIndexPage } from "../../platform/db/merged-query";
import { mapItem } from "../../platform/db/map-item";
import { transact, TxConditionFailed, type TxItem } from "../../platform/db/transact";
import { setExpression } from "../../platform/db/update";

/** A list and one contact of a list, as the API shows them (shared contracts): the stored records add only keys and search text. */
export type ContactList = ContactListResponse;
export type ContactListItem = ContactListItemResponse;
export type NewContactListItem = Pick<ContactListItem, "name" | "number" | "email">;

/**
 * Keys (docs/adr/0002-single-table.md):
 * - list: `CO#<c>` / `CONTACTLIST#<id>`; gsi1 `CO#<c>#CONTACTLIST` / `<name lower>#<id>` (A-Z).
 * - item: `CO#<c>#CLIST#<listId>` / `N#<number>`: one item per number per list by construction; a list's items
 *   page in number order with no index.
 *   gsi1 `CO#<c>#CLIST#<listId>#NAME` / `<name lower>#<id>`: the items page of the screen, by name (A-Z).
 * - item id pointer: `CO#<c>` / `CLITEM#<id>` -> { contactListId, number } (the spec addresses items by id).
 */
const listKey = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `CONTACTLIST#${pad(id)}` });
const listIndexPk = (companyId: number) => `${companyPk(companyId)}#CONTACTLIST`;
const itemsPk = (companyId: number, listId: number) => `${companyPk(companyId)}#CLIST#${listId}`;
const itemKey = (companyId: number, listId: number, number: string) => ({ pk: itemsPk(companyId, listId), sk: `N#${number}` });
const pointerKey = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `CLITEM#${pad(id)}` });
const byNamePk = (companyId: number, listId: number) => `${itemsPk(companyId, listId)}#NAME`;
const byNameSk = (i: Pick<ContactListItem, "name" | "id">) => `${i.name.toLowerCase()}#${pad(i.id)}`;

const toList = mapItem<ContactList>({
  id: true,
  companyId: true,
  name: true,
  contactsCount: true,
  createdAt: true,
  updatedAt: true,
});
const toItem = mapItem<ContactListItem>({
  id: true,
  companyId: true,
  contactListId: true,
  name: true,
  number: true,
  email: true,
  isWhatsappValid: true,
  checkedAt: true,
  createdAt: true,
  updatedAt: true,
});
/** What item search matches: name, number and email, lower-cased (spec: search text is lower-cased). */
const searchText = (i: Pick<ContactListItem, "name" | "number" | "email">) => `${i.name}\n${i.number}\n${i.email}`.toLowerCase();

/** Opaque cursor of an item page: the sort key of the last item served. */
const encodeCursor = (sk: string) => Buffer.from(sk, "utf8").toString("base64url");
const decodeCursor = (cursor: string | undefined) => {
  if (!cursor) return undefined;
  const sk = Buffer.from(cursor, "base64url").toString("utf8");
  return sk.startsWith("N#") ? sk : undefined;
};

/** Items read per page at most when a search filter drops items (keeps every page a bounded read). */
const SEARCH_READ_BUDGET = 1000;
/** Rows per import transaction: 2 actions each (item + id pointer) plus the list's count, under DynamoDB's 100. */
const ROWS_PER_TX = 49;

export const createContactListsRepository = (db: Db) => {
  const T = db.tableName;

  const itemPuts = (item: ContactListItem): TxItem[] => [
    {
      Put: {
        TableName: T,
        Item: {
          ...itemKey(item.companyId, item.contactListId, item.number),
          gsi1pk: byNamePk(item.companyId, item.contactListId),
          gsi1sk: byNameSk(item),
          entity: "contactListItem",
          ...item,
          search: searchText(item),
        },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    { Put: { TableName: T, Item: { ...pointerKey(item.companyId, item.id), entity: "contactListItemId", contactListId: item.contactListId, number: item.number } } },
  ];
  const countUpdate = (companyId: number, listId: number, delta: number, now: Date): TxItem => ({
    Update: {
      TableName: T,
      Key: listKey(companyId, listId),
      UpdateExpression: "ADD #c :d SET #u = :u",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#c": "contactsCount", "#u": "updatedAt" },
      ExpressionAttributeValues: { ":d": delta, ":u": now.toISOString() },
    },
  });

  const repo = {
    // ---- lists ----
    async create(companyId: number, name: string, now: Date): Promise<ContactList> {
      const id = await nextId(db, companyId, "contactList");
      const list: ContactList = { id, companyId, name, contactsCount: 0, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      await db.doc.send(
        new PutCommand({
          TableName: T,
          Item: { ...listKey(companyId, id), gsi1pk: listIndexPk(companyId), gsi1sk: `${name.toLowerCase()}#${pad(id)}`, nameLower: name.toLowerCase(), entity: "contactList", ...list },
        }),
      );
      return list;
    },
    /** A list of the company, or null (another company's id is simply not found). */
    async findById(companyId: number, id: number): Promise<ContactList | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: listKey(companyId, id), ConsistentRead: true }));
      return out.Item ? toList(out.Item) : null;
    },
    /** Renames a list; null when it was deleted meanwhile. */
    async rename(companyId: number, id: number, name: string, now: Date): Promise<ContactList | null> {
      try {
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: listKey(companyId, id),
            ...setExpression({ name, nameLower: name.toLowerCase(), gsi1sk: `${name.toLowerCase()}#${pad(id)}`, updatedAt: now.toISOString() }),
            ConditionExpression: "attribute_exists(pk)",
            ReturnValues: "ALL_NEW",
          }),
        );
        return out.Attributes ? toList(out.Attributes) : null;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return null;
        throw e;
      }
    },
    async remove(companyId: number, id: number): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: listKey(companyId, id) }));
    },
    /** One page of the company's lists by name (A-Z), filtered by a lower-case name substring. */
    async page(companyId: number, term: string, limit: number, cursor?: string): Promise<{ items: ContactList[]; next?: string }> {
      const filter = term ? { expression: "contains(#nl, :term)", names: { "#nl": "nameLower" }, values: { ":term": term } } : undefined;
      const out = await mergedIndexPage(db, [{ index: "gsi1", pk: listIndexPk(companyId) }], { limit, cursor, filter, ascending: true });
      return { items: out.items.map(toList), next: out.next };
    },

    // ---- items ----
    /**
     * One page of a list's items in number order: `{ items, next }`, `next` absent on the last page.
     * `term` (lower case) filters by name, number or email; `validOnly` keeps the WhatsApp-valid ones (campaigns).
     */
    async pageItems(
      companyId: number,
      contactListId: number,
      cursor?: string,
      limit = 100,
      opts: { term?: string; validOnly?: boolean } = {},
    ): Promise<{ items: ContactListItem[]; next?: string }> {
      const conditions: string[] = [];
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      if (opts.term) {
        conditions.push("contains(#s, :term)");
        names["#s"] = "search";
        values[":term"] = opts.term;
      }
      if (opts.validOnly) {
        conditions.push("#v = :true");
        names["#v"] = "isWhatsappValid";
        values[":true"] = true;
      }
      const found: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined = decodeCursor(cursor) ? itemKey(companyId, contactListId, decodeCursor(cursor)!.slice(2)) : undefined;
      let read = 0;
      let more = false;
      for (;;) {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": itemsPk(companyId, contactListId), ...values },
            ...(conditions.length ? { FilterExpression: conditions.join(" AND "), ExpressionAttributeNames: names } : {}),
            Limit: conditions.length ? 200 : limit + 1 - found.length,
            ExclusiveStartKey: start,
          }),
        );
        found.push(...(out.Items ?? []));
        read += out.ScannedCount ?? 0;
        start = out.LastEvaluatedKey;
        if (found.length > limit) {
          more = true;
          break;
        }
        if (!start) break;
        if (read >= SEARCH_READ_BUDGET) {
          // stop at the budget: the next page resumes after the last item read, so nothing is skipped
          if (found.length === 0) return { items: [], next: encodeCursor(String(start.sk)) };
          more = true;
          break;
        }
      }
      const items = found.slice(0, limit);
      const last = items[items.length - 1];
      return { items: items.map(toItem), next: more && last ? encodeCursor(String(last.sk)) : undefined };
    },
    /** One page of a list's items by name (A-Z) for the screen, filtered by a lower-case term (name, number, email). */
    async pageItemsByName(companyId: number, contactListId: number, term: string, limit: number, cursor?: string): Promise<{ items: ContactListItem[]; next?: string }> {
      const filter = term ? { expression: "contains(#s, :term)", names: { "#s": "search" }, values: { ":term": term } } : undefined;
      const out = await mergedIndexPage(db, [{ index: "gsi1", pk: byNamePk(companyId, contactListId) }], { limit, cursor, filter, ascending: true });
      return { items: out.items.map(toItem), next: out.next };
    },
    async findItem(companyId: number, contactListId: number, number: string): Promise<ContactListItem | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: itemKey(companyId, contactListId, number), ConsistentRead: true }));
      return out.Item ? toItem(out.Item) : null;
    },
    async findItemById(companyId: number, id: number): Promise<ContactListItem | null> {
      const ptr = await db.doc.send(new GetCommand({ TableName: T, Key: pointerKey(companyId, id), ConsistentRead: true }));
      if (!ptr.Item) return null;
      const item = await repo.findItem(companyId, Number(ptr.Item.contactListId), String(ptr.Item.number));
      return item && item.id === id ? item : null;
    },
    /** Adds one item and counts it; "duplicate" when the number is already in the list, "listGone" when the list was deleted. */
    async addItem(companyId: number, contactListId: number, input: NewContactListItem, now: Date): Promise<ContactListItem | "duplicate" | "listGone"> {
      const id = await nextId(db, companyId, "contactListItem");
      const item: ContactListItem = { id, companyId, contactListId, ...input, isWhatsappValid: false, checkedAt: null, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      try {
        await transact(db, [...itemPuts(item), countUpdate(companyId, contactListId, 1, now)]);
        return item;
      } catch (e) {
        if (e instanceof TxConditionFailed) return e.failed.includes(0) ? "duplicate" : "listGone";
        throw e;
      }
    },
    /**
     * Adds many items (an import), skipping numbers already in the list; counts them on the list.
     * Returns the items added. Numbers must be distinct within `inputs`. Chunks are written in order, one
     * transaction each (they all count on the same list item, so they cannot run side by side).
     */
    async addItems(companyId: number, contactListId: number, inputs: NewContactListItem[], now: Date): Promise<ContactListItem[]> {
      const list = await repo.findById(companyId, contactListId);
      if (!list || inputs.length === 0) return [];
      // an empty list needs no look-ups first: the transactions' conditions still refuse a number added meanwhile
      const checkExisting = list.contactsCount > 0;
      // ids for the whole file in one write (numbers skipped as duplicates leave gaps, which is fine)
      const ids = await nextIds(db, companyId, "contactListItem", inputs.length);
      const added: ContactListItem[] = [];
      for (let i = 0; i < inputs.length; i += ROWS_PER_TX) {
        const chunk = inputs.slice(i, i + ROWS_PER_TX).map((input, k) => ({ input, id: ids[i + k]! }));
        const existing = checkExisting ? await repo.existingNumbers(companyId, contactListId, chunk.map((c) => c.input.number)) : new Set<string>();
        const items: ContactListItem[] = chunk
          .filter((c) => !existing.has(c.input.number))
          .map(({ input, id }) => ({
            id,
            companyId,
            contactListId,
            name: input.name,
            number: input.number,
            email: input.email,
            isWhatsappValid: false,
            checkedAt: null,
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          }));
        if (items.length === 0) continue;
        try {
          await transact(db, [...items.flatMap(itemPuts), countUpdate(companyId, contactListId, items.length, now)]);
          added.push(...items);
        } catch (e) {
          if (!(e instanceof TxConditionFailed)) throw e;
          if (e.failed.includes(items.length * 2)) return added; // the list was deleted meanwhile
          // a number arrived concurrently: add this chunk one by one
          for (const item of items) {
            const one = await repo.addItem(companyId, contactListId, { name: item.name, number: item.number, email: item.email }, now);
            if (one === "listGone") return added;
            if (one !== "duplicate") added.push(one);
          }
        }
      }
      return added;
    },
    /** Which of these numbers are already in the list (batched reads, 100 keys each). */
    async existingNumbers(companyId: number, contactListId: number, numbers: string[]): Promise<Set<string>> {
      const items = await batchGetAll(db, numbers.map((n) => itemKey(companyId, contactListId, n)), { attributes: ["number"] });
      return new Set(items.map((it) => String(it.number)));
    },
    /**
     * Changes an item's fields. A new number moves the item to its new key (one transaction);
     * "duplicate" when the new number is already in the list, null when the item is gone.
     */
    async updateItem(current: ContactListItem, changes: NewContactListItem, now: Date): Promise<ContactListItem | "duplicate" | null> {
      const numberChanged = changes.number !== current.number;
      const next: ContactListItem = {
        ...current,
        ...changes,
        ...(numberChanged ? { isWhatsappValid: false, checkedAt: null } : {}),
        updatedAt: now.toISOString(),
      };
      const { companyId, contactListId } = current;
      try {
        if (!numberChanged) {
          await db.doc.send(
            new UpdateCommand({
              TableName: T,
              Key: itemKey(companyId, contactListId, current.number),
              ...setExpression({ name: next.name, email: next.email, search: searchText(next), gsi1sk: byNameSk(next), updatedAt: next.updatedAt }),
              ConditionExpression: "attribute_exists(pk)",
            }),
          );
          return next;
        }
        await transact(db, [
          { Delete: { TableName: T, Key: itemKey(companyId, contactListId, current.number), ConditionExpression: "attribute_exists(pk)" } },
          ...itemPuts(next),
        ]);
        return next;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return null;
        if (e instanceof TxConditionFailed) return e.failed.includes(0) ? null : "duplicate";
        throw e;
      }
    },
    /** Records a WhatsApp validity answer for the item holding this number (if it is still item `id`). */
    async setValidity(companyId: number, contactListId: number, id: number, number: string, valid: boolean, now: Date): Promise<ContactListItem | null> {
      try {
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: itemKey(companyId, contactListId, number),
            UpdateExpression: "SET #v = :v, #c = :c",
            ConditionExpression: "attribute_exists(pk) AND #id = :id",
            ExpressionAttributeNames: { "#v": "isWhatsappValid", "#c": "checkedAt", "#id": "id" },
            ExpressionAttributeValues: { ":v": valid, ":c": now.toISOString(), ":id": id },
            ReturnValues: "ALL_NEW",
          }),
        );
        return out.Attributes ? toItem(out.Attributes) : null;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return null;
        throw e;
      }
    },
    /** Removes an item and uncounts it; false when it was already gone. */
    async removeItem(item: ContactListItem, now: Date): Promise<boolean> {
      try {
        await transact(db, [
          { Delete: { TableName: T, Key: itemKey(item.companyId, item.contactListId, item.number), ConditionExpression: "attribute_exists(pk)" } },
          { Delete: { TableName: T, Key: pointerKey(item.companyId, item.id) } },
          countUpdate(item.companyId, item.contactListId, -1, now),
        ]);
        return true;
      } catch (e) {
        if (e instanceof TxConditionFailed) {
          if (e.failed.includes(0)) return false;
          // the list itself is gone: remove the item without counting
          await repo.purgeItems([item]);
          return true;
        }
        throw e;
      }
    },
    /** Deletes items and their id pointers without touching any count (a deleted list's leftovers). */
    async purgeItems(items: ContactListItem[]): Promise<void> {
      const requests = items.flatMap((i) => [
        { DeleteRequest: { Key: itemKey(i.companyId, i.contactListId, i.number) } },
        { DeleteRequest: { Key: pointerKey(i.companyId, i.id) } },
      ]);
      for (let at = 0; at < requests.length; at += 25) {
        let batch: (typeof requests)[number][] | undefined = requests.slice(at, at + 25);
        while (batch && batch.length) {
          const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [T]: batch } }));
          batch = out.UnprocessedItems?.[T] as typeof batch;
        }
      }
    },
  };
  return repo;
};
export type ContactListsRepository = ReturnType<typeof createContactListsRepository>;
