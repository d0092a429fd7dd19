import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import type { Db } from "../../../platform/db/client";
import { mergedIndexPage, type IndexPartition, type ItemFilter } from "../../../platform/db/merged-query";
import { CARD_ATTRIBUTES, toCard, toTicket, type TicketCard, type TicketRecord } from "./ticket-record";
import { COUNTED, countPk, inList, lastMessageFilter, listFilter, listPartitions, queuePartition, readsTagCopies, userPartition, type TicketListScope } from "./ticket-keys";

/** The ticket lists' reads: pages, counts, cursors' keys (docs/adr/0036, 0040, 0046, 0050). Part of the tickets repository. */
export const createTicketListReads = (db: Db) => {
  const T = db.tableName;
  /** One page of tickets from several index partitions, newest activity first. */
  const read = (partitions: IndexPartition[], limit: number, cursor?: string, filter?: ItemFilter, attributes?: readonly string[]) =>
    // one ticket may come from several partitions (own ticket in the viewer's queue, two of the filter's tags);
    // a filter reads its budget in one query per partition (round trips, docs/adr/0040)
    mergedIndexPage(db, partitions, { limit, cursor, filter, orderField: "act", dedupeBy: "id", budgetInOneRead: true, attributes });
  const page = async (partitions: IndexPartition[], limit: number, cursor?: string, filter?: ItemFilter) => {
    const out = await read(partitions, limit, cursor, filter);
    return { items: out.items.map(toTicket), next: out.next };
  };
  /** Items of some partitions (each partition's 1 MB pages one after another, the partitions side by side). */
  const count = async (partitions: IndexPartition[], filter?: ItemFilter): Promise<number> => {
    let total = 0;
    await Promise.all(partitions.map(async (p) => {
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            IndexName: p.index,
            KeyConditionExpression: "#pk = :pk",
            ExpressionAttributeNames: { "#pk": `${p.index}pk`, ...filter?.names },
            ExpressionAttributeValues: { ":pk": p.pk, ...filter?.values },
            ...(filter ? { FilterExpression: filter.expression } : {}),
            Select: "COUNT",
            ExclusiveStartKey: start,
          }),
        );
        total += out.Count ?? 0;
        start = out.LastEvaluatedKey;
      } while (start);
    }));
    return total;
  };
  /** Distinct tickets of some partitions (a ticket in several of them counted once): ids only, the partitions side by side. */
  const countDistinct = async (partitions: IndexPartition[], filter?: ItemFilter): Promise<number> => {
    const ids = new Set<unknown>();
    await Promise.all(
      partitions.map(async (p) => {
        let start: Record<string, unknown> | undefined;
        do {
          const out = await db.doc.send(
            new QueryCommand({
              TableName: T,
              IndexName: p.index,
              KeyConditionExpression: "#pk = :pk",
              ExpressionAttributeNames: { "#pk": `${p.index}pk`, "#id": "id", ...filter?.names },
              ExpressionAttributeValues: { ":pk": p.pk, ...filter?.values },
              ...(filter ? { FilterExpression: filter.expression } : {}),
              ProjectionExpression: "#id",
              ExclusiveStartKey: start,
            }),
          );
          for (const i of out.Items ?? []) ids.add(i.id);
          start = out.LastEvaluatedKey;
        } while (start);
      }),
    );
    return ids.size;
  };
  return {
    /** What identifies a list's reads (its partitions and filter), for the page cursors kept between requests. */
    listCacheKey(scope: TicketListScope): unknown[] {
      return ["tickets", listPartitions(scope).map((p) => p.pk), listFilter(scope.query) ?? null];
    },
    /**
     * Whether a list reads without an item filter (tags read by item filter, unread, date): then a read of `n` pages'
     * worth of items gives exactly the items of pages 1..n one after the other (no page cut short by a read budget),
     * which lets the first pages be served from the start without a remembered cursor (docs/adr/0046).
     */
    readsWithoutItemFilter(scope: TicketListScope): boolean {
      return listFilter(scope.query) === undefined;
    },
    /** One page of a ticket list (the query's filters applied while reading), newest activity first. */
    async pageList(scope: TicketListScope, limit: number, cursor?: string) {
      return page(listPartitions(scope), limit, cursor, listFilter(scope.query));
    },
    /**
     * pageList reading only what a ticket's card shows (docs/adr/0050): about half of a ticket item's attributes
     * (not its index keys, bot state, cycle history, lower-cased text or chat id), fewer bytes to carry
     * and to unmarshal per item; the same items, order and cursor.
     */
    async pageListCards(scope: TicketListScope, limit: number, cursor?: string): Promise<{ items: TicketCard[]; next?: string }> {
      const out = await read(listPartitions(scope), limit, cursor, listFilter(scope.query), CARD_ATTRIBUTES);
      return { items: out.items.map(toCard), next: out.next };
    },
    /**
     * How many tickets a list holds. A pending or open list without item filters (tags, unread, date) sums its
     * counter cells (one query of a small partition, whatever the history's size); otherwise every partition is
     * counted (meant for the small open and pending sets).
     */
    async countList(scope: TicketListScope): Promise<number> {
      const q = scope.query;
      const status = q.status;
      // one tag, no other item filter: the tag's cells; unread, a date or several tags: every partition counted
      const byCells = !!status && COUNTED.has(status) && !listFilter(q, false) && q.tags.length <= 1;
      // several tags (or a tag with unread/date): the tags' copies' ids, a ticket counted once (bounded by the live
      // tickets carrying those tags, not by the tab)
      if (!byCells) return readsTagCopies(q) ? countDistinct(listPartitions(scope), listFilter(q)) : count(listPartitions(scope), listFilter(q));
      const member = inList(scope);
      let total = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk AND begins_with(sk, :s)",
            ExpressionAttributeValues: { ":pk": countPk(scope.companyId), ":s": `${q.tags.length ? `T${q.tags[0]}#` : ""}${status}#` },
            ExclusiveStartKey: start,
          }),
        );
        for (const i of out.Items ?? []) {
          const cell = { status: i.status as TicketStatus, queueId: (i.queueId as number | null) ?? null, userId: (i.userId as number | null) ?? null };
          if (member(cell)) total += Number(i.n ?? 0);
        }
        start = out.LastEvaluatedKey;
      } while (start);
      return total;
    },
    /** The first page of a list's tickets whose last message contains `term` (the query's other filters not applied). */
    async pageListByLastMessage(scope: TicketListScope, term: string, limit: number) {
      return page(listPartitions(scope), limit, undefined, lastMessageFilter(term));
    },
    /** Automatic distribution (docs/adr/0032): up to `limit` pending tickets of a queue (newest activity first). */
    async listQueuePending(companyId: number, queueId: number, limit: number): Promise<TicketRecord[]> {
      return (await page([queuePartition(companyId, queueId, "pending")], limit)).items;
    },
    /** Automatic distribution: how many open tickets a user owns (reconciles the slot counter). */
    async countOwnedOpen(companyId: number, userId: number): Promise<number> {
      return count([userPartition(companyId, userId, "open")]);
    },
    /** One page merging several lists (e.g. the open and the pending tab of the kanban), newest activity first. */
    async pageLists(scopes: TicketListScope[], limit: number, cursor?: string) {
      return page(scopes.flatMap(listPartitions), limit, cursor);
    },
  };
};
