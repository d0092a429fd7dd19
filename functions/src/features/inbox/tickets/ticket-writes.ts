import { BatchWriteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { TicketChange, TicketCycle } from "@atende/shared/contracts/http/tickets";
import type { Db } from "../../../platform/db/client";
import { pad } from "../../../platform/db/keys";
import { transact, type TxItem } from "../../../platform/db/transact";
import { toTicket, type TicketRecord } from "./ticket-record";
import {
  changeKey,
  cellsOf,
  contactTicketKey,
  COPIED,
  copiedTags,
  COUNTED,
  countPk,
  cycleKey,
  cycleMonthPk,
  indexFields,
  key,
  openLockKey,
  protocolKey,
  skOfCell,
  statusPartition,
  tagCopyKey,
  uuidKey,
  type CountCell,
} from "./ticket-keys";

/** A ticket's writes: the items of the service's transactions, its list counters and tag copies. Part of the tickets repository. */
export const createTicketWrites = (db: Db) => {
  const T = db.tableName;
  return {
    /**
     * The counter updates of a ticket moving from `before` to `after` (null: created / deleted), for the ticket's
     * own transaction; none when it stays in the same cells (a message, a read).
     */
    countItems(before: TicketRecord | null, after: TicketRecord | null): TxItem[] {
      const from = new Map(cellsOf(before).map((c) => [skOfCell(c), c]));
      const to = new Map(cellsOf(after).map((c) => [skOfCell(c), c]));
      const companyId = (after ?? before)!.companyId;
      const add = (c: CountCell, n: number): TxItem => ({
        Update: {
          TableName: T,
          Key: { pk: countPk(companyId), sk: skOfCell(c) },
          UpdateExpression: "SET #e = :e, #s = :s, #q = :q, #u = :u ADD #n :n",
          ExpressionAttributeNames: { "#e": "entity", "#s": "status", "#q": "queueId", "#u": "userId", "#n": "n" },
          ExpressionAttributeValues: { ":e": "ticketCount", ":s": c.status, ":q": c.queueId, ":u": c.userId, ":n": n },
        },
      });
      return [...[...from].filter(([k]) => !to.has(k)).map(([, c]) => add(c, -1)), ...[...to].filter(([k]) => !from.has(k)).map(([, c]) => add(c, 1))];
    },
    /**
     * The tag copies of a ticket moving from `before` to `after` (null: created / deleted), for the ticket's own
     * transaction (docs/adr/0040, 0057): every copy of a tagged ticket is rewritten with it (its card and activity
     * change with it), copies of tags it lost or of a deleted ticket are deleted.
     */
    tagCopyItems(before: TicketRecord | null, after: TicketRecord | null): TxItem[] {
      const kept = copiedTags(after);
      const t = (after ?? before)!;
      return [
        ...copiedTags(before)
          .filter((tagId) => !kept.includes(tagId))
          .map((tagId): TxItem => ({ Delete: { TableName: T, Key: tagCopyKey(t.companyId, t.id, tagId) } })),
        ...kept.map((tagId): TxItem => ({ Put: { TableName: T, Item: { ...tagCopyKey(t.companyId, t.id, tagId), ...indexFields(after!, tagId), entity: "ticketTagCopy", tagId, ...after } } })),
      ];
    },
    /**
     * Rebuilds a company's counter cells (from its pending and open tickets) and tag copies (docs/adr/0040; of its
     * closed tagged tickets too since docs/adr/0057) for a table written before they existed, or data loaded around
     * the repository (e.g. the benchmark's seed). Writes absolute values: run it while the company's tickets are not
     * changing. (Copies are only added or replaced: a copy of a tag the ticket no longer carries goes with the
     * ticket's next write.)
     */
    async recountLists(companyId: number): Promise<void> {
      const cells = new Map<string, CountCell & { n: number }>();
      const copies: Record<string, unknown>[] = [];
      for (const status of COPIED) {
        // the closed history only for its tagged tickets' copies (it has no counter cells)
        const taggedOnly = !COUNTED.has(status);
        let start: Record<string, unknown> | undefined;
        do {
          const out = await db.doc.send(
            new QueryCommand({
              TableName: T,
              IndexName: "gsi1",
              KeyConditionExpression: "gsi1pk = :pk",
              ExpressionAttributeValues: { ":pk": statusPartition(companyId, status).pk, ...(taggedOnly ? { ":zero": 0 } : {}) },
              ...(taggedOnly ? { FilterExpression: "size(tagIds) > :zero" } : {}),
              ExclusiveStartKey: start,
            }),
          );
          for (const i of out.Items ?? []) {
            const t = toTicket(i);
            t.tagIds = t.tagIds ?? [];
            for (const c of cellsOf(t)) {
              const k = skOfCell(c);
              cells.set(k, { ...c, n: (cells.get(k)?.n ?? 0) + 1 });
            }
            for (const tagId of copiedTags(t)) copies.push({ ...tagCopyKey(companyId, t.id, tagId), ...indexFields(t, tagId), entity: "ticketTagCopy", tagId, ...t });
          }
          start = out.LastEvaluatedKey;
        } while (start);
      }
      const stale = await db.doc.send(new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": countPk(companyId) } }));
      const items = [
        ...(stale.Items ?? []).filter((i) => !cells.has(String(i.sk))).map((i) => ({ ...i, n: 0 })),
        ...[...cells].map(([sk, c]) => ({ pk: countPk(companyId), sk, entity: "ticketCount", ...c })),
        ...copies,
      ];
      for (let i = 0; i < items.length; i += 25) {
        let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
        while (pending.length) {
          const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [T]: pending } }));
          pending = (out.UnprocessedItems?.[T] ?? []) as typeof pending;
        }
      }
    },

    // ---- transaction items (the service composes one transaction per change) ----
    /** A new ticket: the item, its uuid pointer and the contact's ticket pointer. */
    createItems(t: TicketRecord): TxItem[] {
      return [
        { Put: { TableName: T, Item: { ...key(t.companyId, t.id), ...indexFields(t), entity: "ticket", ...t }, ConditionExpression: "attribute_not_exists(pk)" } },
        { Put: { TableName: T, Item: { ...uuidKey(t.companyId, t.uuid), entity: "ticketUuid", ticketId: t.id } } },
        { Put: { TableName: T, Item: { ...contactTicketKey(t.companyId, t.contactId, t.id), entity: "contactTicket", ticketId: t.id } } },
        ...(t.cycle.protocol
          ? [{ Put: { TableName: T, Item: { ...protocolKey(t.companyId, t.cycle.protocol), entity: "ticketProtocol", ticketId: t.id }, ConditionExpression: "attribute_not_exists(pk)" } }]
          : []),
      ];
    },
    /** Replaces the ticket if nobody changed it since `expectedVersion` was read. */
    saveItem(t: TicketRecord, expectedVersion: number): TxItem {
      return {
        Put: {
          TableName: T,
          Item: { ...key(t.companyId, t.id), ...indexFields(t), entity: "ticket", ...t },
          ConditionExpression: "#v = :v",
          ExpressionAttributeNames: { "#v": "version" },
          ExpressionAttributeValues: { ":v": expectedVersion },
        },
      };
    },
    deleteItems(t: TicketRecord): TxItem[] {
      return [
        { Delete: { TableName: T, Key: key(t.companyId, t.id) } },
        { Delete: { TableName: T, Key: uuidKey(t.companyId, t.uuid) } },
        { Delete: { TableName: T, Key: contactTicketKey(t.companyId, t.contactId, t.id) } },
        { Delete: { TableName: T, Key: cycleKey(t.companyId, t.id) } },
        ...(t.cycle.protocol ? [{ Delete: { TableName: T, Key: protocolKey(t.companyId, t.cycle.protocol) } }] : []),
      ];
    },
    /** Takes the contact+connection lock for this ticket; fails if another ticket holds it. */
    lockOpenItem(t: Pick<TicketRecord, "companyId" | "contactId" | "whatsappId" | "id">): TxItem {
      return {
        Put: {
          TableName: T,
          Item: { ...openLockKey(t.companyId, t.contactId, t.whatsappId), entity: "ticketOpenLock", ticketId: t.id },
          ConditionExpression: "attribute_not_exists(pk) OR ticketId = :id",
          ExpressionAttributeValues: { ":id": t.id },
        },
      };
    },
    /** Releases the lock only if this ticket holds it. */
    unlockOpenItem(t: Pick<TicketRecord, "companyId" | "contactId" | "whatsappId" | "id">): TxItem {
      return {
        Delete: {
          TableName: T,
          Key: openLockKey(t.companyId, t.contactId, t.whatsappId),
          ConditionExpression: "attribute_not_exists(pk) OR ticketId = :id",
          ExpressionAttributeValues: { ":id": t.id },
        },
      };
    },
    cycleItem(c: TicketCycle): TxItem {
      return { Put: { TableName: T, Item: { ...cycleKey(c.companyId, c.ticketId), gsi1pk: cycleMonthPk(c.companyId, c.queuedAt), gsi1sk: `${c.queuedAt}#${pad(c.ticketId)}`, entity: "ticketCycle", ...c } } };
    },
    changeItem(companyId: number, change: TicketChange, seq: string): TxItem {
      return { Put: { TableName: T, Item: { ...changeKey(companyId, change.ticketId, change.at, seq), entity: "ticketChange", ...change } } };
    },
    async transact(items: TxItem[]) {
      await transact(db, items);
    },
  };
};
