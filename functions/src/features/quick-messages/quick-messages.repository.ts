import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mergedIndexPage, type ItemFilter } from "../../platform/db/merged-query";
import { mapItem } from "../../platform/db/map-item";
import { transact, TxConditionFailed, type TxItem } from "../../platform/db/transact";
import { AppError } from "../../platform/errors";

export type QuickMessage = {
  id: number;
  companyId: number;
  userId: number;
  shortcode: string;
  message: string;
  geral: boolean;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
};
export type NewQuickMessage = Omit<QuickMessage, "id" | "createdAt" | "updatedAt">;

/** Who may see what: `geral` items for everyone, the others only for their author (admins see all on the page). */
export type QuickMessageScope = { all: true } | { all: false; userId: number };

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `QM#${pad(id)}` });
/** One guard item per shortcode (case-insensitive) keeps shortcodes unique in the company. */
const shortcodeGuard = (companyId: number, shortcode: string) => ({ pk: companyPk(companyId), sk: `QMSC#${shortcode.trim().toLowerCase()}` });
/** gsi1: the company's quick messages by shortcode (A-Z). */
const listPk = (companyId: number) => `${companyPk(companyId)}#QM`;
const indexFields = (q: QuickMessage) => ({ gsi1pk: listPk(q.companyId), gsi1sk: `${q.shortcode.toLowerCase()}#${pad(q.id)}`, shortcodeLower: q.shortcode.toLowerCase() });
const toQuickMessage = mapItem<QuickMessage>({
  id: true,
  companyId: true,
  userId: true,
  shortcode: true,
  message: true,
  geral: true,
  status: true,
  mediaPath: true,
  mediaName: true,
  createdAt: true,
  updatedAt: true,
});

/** Visibility and search as one filter expression (aliases: `geral`/`status` are plain names, `userId` too, but alias all). */
const filterOf = (scope: QuickMessageScope, term: string): ItemFilter | undefined => {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (!scope.all) {
    parts.push("(#geral = :true OR #uid = :uid)");
    Object.assign(names, { "#geral": "geral", "#uid": "userId" });
    Object.assign(values, { ":true": true, ":uid": scope.userId });
  }
  if (term) {
    parts.push("contains(#scl, :term)");
    names["#scl"] = "shortcodeLower";
    values[":term"] = term.toLowerCase();
  }
  return parts.length ? { expression: parts.join(" AND "), names, values } : undefined;
};

export const createQuickMessagesRepository = (db: Db) => {
  const T = db.tableName;
  const guardPut = (companyId: number, shortcode: string, id: number): TxItem => ({
    Put: { TableName: T, Item: { ...shortcodeGuard(companyId, shortcode), entity: "quickMessageGuard", quickMessageId: id }, ConditionExpression: "attribute_not_exists(pk)" },
  });
  const itemPut = (q: QuickMessage, condition?: string): TxItem => ({
    Put: { TableName: T, Item: { ...key(q.companyId, q.id), ...indexFields(q), entity: "quickMessage", ...q }, ...(condition ? { ConditionExpression: condition } : {}) },
  });
  /** Runs the items; a failed condition on `guardAt` is a taken shortcode, any other a vanished item. */
  const run = async (items: TxItem[], guardAt: number | null) => {
    try {
      await transact(db, items);
    } catch (e) {
      if (e instanceof TxConditionFailed) throw new AppError(guardAt !== null && e.failed.includes(guardAt) ? "ERR_DUPLICATED_SHORTCODE" : "ERR_NOT_FOUND");
      throw e;
    }
  };

  return {
    /** ERR_DUPLICATED_SHORTCODE when the company already has the shortcode. */
    async create(input: NewQuickMessage, now: Date): Promise<QuickMessage> {
      const id = await nextId(db, input.companyId, "quickMessage");
      const q: QuickMessage = { ...input, id, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      await run([guardPut(q.companyId, q.shortcode, id), itemPut(q)], 0);
      return q;
    },
    async findById(companyId: number, id: number): Promise<QuickMessage | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id) }));
      return out.Item ? toQuickMessage(out.Item) : null;
    },
    /** Replaces the item, moving the shortcode guard when the shortcode changes. */
    async replace(before: QuickMessage, next: QuickMessage): Promise<void> {
      const moved = shortcodeGuard(before.companyId, before.shortcode).sk !== shortcodeGuard(next.companyId, next.shortcode).sk;
      const items: TxItem[] = moved ? [guardPut(next.companyId, next.shortcode, next.id), { Delete: { TableName: T, Key: shortcodeGuard(before.companyId, before.shortcode) } }] : [];
      await run([...items, itemPut(next, "attribute_exists(pk)")], moved ? 0 : null);
    },
    async remove(q: QuickMessage): Promise<void> {
      await transact(db, [
        { Delete: { TableName: T, Key: key(q.companyId, q.id) } },
        { Delete: { TableName: T, Key: shortcodeGuard(q.companyId, q.shortcode) } },
      ]);
    },
    /** One page by shortcode (A-Z), filtered by visibility and a shortcode substring. */
    async page(companyId: number, scope: QuickMessageScope, term: string, limit: number, cursor?: string) {
      const out = await mergedIndexPage(db, [{ index: "gsi1", pk: listPk(companyId) }], { limit, cursor, filter: filterOf(scope, term), ascending: true });
      return { items: out.items.map(toQuickMessage), next: out.next };
    },
    /** How many match (a COUNT query: no items are returned). */
    async count(companyId: number, scope: QuickMessageScope, term: string): Promise<number> {
      const filter = filterOf(scope, term);
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
    /** Every quick message visible in the scope, by shortcode, at most `max` (composer suggestions). */
    async listVisible(companyId: number, scope: QuickMessageScope, max: number): Promise<QuickMessage[]> {
      const filter = filterOf(scope, "");
      const found: QuickMessage[] = [];
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
            ExclusiveStartKey: start,
          }),
        );
        found.push(...(out.Items ?? []).map(toQuickMessage));
        start = out.LastEvaluatedKey;
      } while (start && found.length < max);
      return found.slice(0, max);
    },
  };
};
export type QuickMessagesRepository = ReturnType<typeof createQuickMessagesRepository>;
