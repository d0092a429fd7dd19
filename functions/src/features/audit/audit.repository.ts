import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { AuditAction, AuditEntry, AuditRecordKind } from "@atende/shared/domain/audit/audit";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";

/**
 * The audit trail's store: append-only. There is `append` and there are reads; there is no update and no delete
 * (entries leave only through DynamoDB's TTL at the end of the operator's retention). docs/adr/0029.
 *
 * Keys (sort keys are `<ISO time>#<id>`, so a period is a key range and newest-first is a backwards query):
 * - table: `CO#<cid>#AUDIT`                     a company's trail (the admin's list)
 * - gsi1:  `CO#<cid>#AUDIT#USER#<userId>`       by who did it (user filter)
 * - gsi2:  `CO#<cid>#AUDIT#KIND#<recordKind>`   by record kind (record filter; the record id is a filter)
 * - gsi3:  `AUDIT#MONTH#<yyyy-mm>`               every company, by month: the operator's list without a company
 *   (one partition a month takes every company's entries: audit writes are human-paced, far below 1,000/s)
 * Entries with no company (a failed sign-in with an unknown email) live under `PLATFORM#AUDIT` and in gsi3 only.
 */

export type AuditFilter = {
  /** null: every company (the operator's view) */
  companyId: number | null;
  from?: string;
  to?: string;
  userId?: number;
  action?: AuditAction;
  recordKind?: AuditRecordKind;
  recordId?: string;
};

export type AuditPage = { items: AuditEntry[]; next?: string };

const tablePk = (companyId: number | null) => (companyId === null ? "PLATFORM#AUDIT" : `${companyPk(companyId)}#AUDIT`);
const userPk = (companyId: number, userId: number) => `${companyPk(companyId)}#AUDIT#USER#${userId}`;
const kindPk = (companyId: number, kind: string) => `${companyPk(companyId)}#AUDIT#KIND#${kind}`;
const monthPk = (month: string) => `AUDIT#MONTH#${month}`;

const toEntry = mapItem<AuditEntry>({ id: true, companyId: true, actor: true, ip: true, action: true, record: true, changes: true, at: true });

const KEY_ATTRIBUTES = ["pk", "sk", "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk", "gsi3pk", "gsi3sk"];

/** The months from `to` back to `from` (newest first), as yyyy-mm. */
export const monthsBetween = (from: string, to: string): string[] => {
  const out: string[] = [];
  let y = Number(to.slice(0, 4));
  let m = Number(to.slice(5, 7));
  const stop = from.slice(0, 7);
  for (;;) {
    const month = `${y}-${String(m).padStart(2, "0")}`;
    out.push(month);
    if (month <= stop || out.length > 600) return out;
    m -= 1;
    if (m === 0) {
      m = 12;
      y -= 1;
    }
  }
};

type Plan = { index?: "gsi1" | "gsi2" | "gsi3"; pkName: string; skName: string; partitions: string[] };

/** Picks the narrowest partition(s) for a filter; what the key cannot say becomes a filter expression. */
const plan = (f: AuditFilter, oldest: string, newest: string): Plan => {
  if (f.companyId === null) return { index: "gsi3", pkName: "gsi3pk", skName: "gsi3sk", partitions: monthsBetween(oldest, newest).map(monthPk) };
  if (f.userId !== undefined) return { index: "gsi1", pkName: "gsi1pk", skName: "gsi1sk", partitions: [userPk(f.companyId, f.userId)] };
  if (f.recordKind) return { index: "gsi2", pkName: "gsi2pk", skName: "gsi2sk", partitions: [kindPk(f.companyId, f.recordKind)] };
  return { pkName: "pk", skName: "sk", partitions: [tablePk(f.companyId)] };
};

type Cursor = { p: number; k?: Record<string, unknown> };
const encode = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url");
const decode = (s: string | undefined): Cursor => {
  if (!s) return { p: 0 };
  try {
    const c = JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as Cursor;
    return typeof c.p === "number" ? c : { p: 0 };
  } catch {
    return { p: 0 };
  }
};

/** The earliest instant an audit list reaches back to when no `from` is given (the longest retention allowed). */
export const AUDIT_EPOCH = "2020-01-01T00:00:00.000Z";

export const createAuditRepository = (db: Db) => ({
  /** Stores one entry; a second write of the same id is refused (append-only, never an overwrite). */
  async append(entry: AuditEntry, ttl: number): Promise<void> {
    const sk = `${entry.at}#${entry.id}`;
    const item: Record<string, unknown> = {
      pk: tablePk(entry.companyId),
      sk,
      entity: "audit",
      ...entry,
      ttl,
      gsi3pk: monthPk(entry.at.slice(0, 7)),
      gsi3sk: sk,
    };
    if (entry.companyId !== null) {
      if (entry.actor.kind === "user") Object.assign(item, { gsi1pk: userPk(entry.companyId, entry.actor.userId), gsi1sk: sk });
      Object.assign(item, { gsi2pk: kindPk(entry.companyId, entry.record.kind), gsi2sk: sk });
    }
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: item, ConditionExpression: "attribute_not_exists(pk)" }));
  },

  /**
   * One page of entries, newest first, at most `limit`; `next` continues it. Reads at most `maxReads` query pages
   * per call, so a rare filter answers a short page with a cursor rather than reading a whole year at once.
   */
  async page(f: AuditFilter, opts: { limit: number; cursor?: string; now: Date; maxReads?: number }): Promise<AuditPage> {
    const newest = f.to ?? new Date(opts.now.getTime() + 60_000).toISOString();
    const oldest = f.from ?? AUDIT_EPOCH;
    // a period that starts after its end (a `from` in the future, no `to`) holds nothing: DynamoDB refuses such a BETWEEN
    if (oldest > `${newest}~`) return { items: [] };
    const p = plan(f, oldest, newest);
    const names: Record<string, string> = { "#pk": p.pkName, "#sk": p.skName };
    const values: Record<string, unknown> = { ":from": oldest, ":to": `${newest}~` };
    const filters: string[] = [];
    if (f.action) {
      names["#action"] = "action";
      values[":action"] = f.action;
      filters.push("#action = :action");
    }
    if (f.recordKind && p.index !== "gsi2") {
      names["#record"] = "record";
      names["#kind"] = "kind";
      values[":kind"] = f.recordKind;
      filters.push("#record.#kind = :kind");
    }
    if (f.recordId) {
      names["#record"] = "record";
      names["#rid"] = "id";
      values[":rid"] = f.recordId;
      filters.push("#record.#rid = :rid");
    }
    if (f.userId !== undefined && p.index !== "gsi1") {
      names["#actor"] = "actor";
      names["#uid"] = "userId";
      values[":uid"] = f.userId;
      filters.push("#actor.#uid = :uid");
    }

    const items: AuditEntry[] = [];
    let cursor = decode(opts.cursor);
    let reads = 0;
    const maxReads = opts.maxReads ?? 10;
    while (cursor.p < p.partitions.length && items.length < opts.limit && reads < maxReads) {
      reads++;
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          IndexName: p.index,
          KeyConditionExpression: "#pk = :pk AND #sk BETWEEN :from AND :to",
          FilterExpression: filters.length ? filters.join(" AND ") : undefined,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...values, ":pk": p.partitions[cursor.p] },
          ExclusiveStartKey: cursor.k,
          ScanIndexForward: false,
          Limit: Math.max(opts.limit * 2, 50),
        }),
      );
      const found = out.Items ?? [];
      let taken = 0;
      for (const item of found) {
        if (items.length >= opts.limit) break;
        items.push(toEntry(item));
        taken++;
      }
      if (taken < found.length) {
        // stopped inside this query page: continue right after the last entry taken
        const last = found[taken - 1]!;
        cursor = { p: cursor.p, k: Object.fromEntries(KEY_ATTRIBUTES.filter((k) => (k === "pk" || k === "sk" || k.startsWith(p.index ?? "-")) && last[k] !== undefined).map((k) => [k, last[k]])) };
      } else if (out.LastEvaluatedKey) {
        cursor = { p: cursor.p, k: out.LastEvaluatedKey };
      } else {
        cursor = { p: cursor.p + 1 };
      }
    }
    const done = cursor.p >= p.partitions.length;
    return { items, next: done ? undefined : encode(cursor) };
  },
});
export type AuditRepository = ReturnType<typeof createAuditRepository>;
