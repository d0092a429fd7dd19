import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { CAMPAIGN_FIELDS, type Campaign, type CampaignStatus } from "@atende/shared/domain/campaigns/campaign";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";
import { transact, TxConditionFailed } from "../../platform/db/transact";

export type CampaignFields = Omit<Campaign, "id" | "companyId" | "createdAt" | "updatedAt" | "completedAt">;

/** The dispatch state kept on the campaign item beside its fields (never sent to the browser as such). */
export type CampaignRun = {
  /** the step the next job must carry; a job with another number is a duplicate or belongs to an earlier run */
  stepSeq: number;
  /** the contact list's cursor of the next recipient (null: from the start) */
  cursor: string | null;
  /** true once every recipient of the list was reached */
  walkDone: boolean;
  /** messages sent in this campaign (drives the longer pause every `longerIntervalAfter` messages) */
  sentCount: number;
  validCount: number;
  /** the list's valid recipients as counted in the background when the campaign started (null until counted) */
  expectedValid: number | null;
  deliveredCount: number;
  failedCount: number;
  /** recipients skipped because they opted out (LGPD; counted in failedCount too) */
  optedOutCount: number;
  confirmationRequestedCount: number;
  confirmedCount: number;
};
export type CampaignRecord = Campaign & CampaignRun;

export type ShippingState = "sending" | "awaiting" | "confirmed" | "delivered" | "failed";
/** One recipient of one campaign: created once, so a restart or a duplicate job never sends twice. */
export type Shipping = {
  campaignId: number;
  companyId: number;
  itemId: number;
  number: string;
  name: string;
  email: string;
  contactId: number | null;
  /** the variant drawn for this recipient (1..5): the confirmation and the real message come from the same one */
  variant: number;
  state: ShippingState;
  confirmationRequestedAt: string | null;
  confirmedAt: string | null;
  deliveredAt: string | null;
  error: string | null;
  createdAt: string;
};

/**
 * Keys (docs/adr/0002-single-table.md):
 * - campaign: `CO#<companyId>` / `CMP#<id>`; gsi1 `CO#<c>#CMP` / id (the list, newest first)
 * - gsi3 due index, only while PROGRAMADA: a few platform partitions sorted by scheduledAt (the minute tick reads
 *   only what is due, never a scan); the item leaves the index when it starts.
 * - shipping: `CO#<c>#CMP#<id>#SHP` / `S#<itemId>`; while awaiting a confirmation also gsi1
 *   `CO#<c>#CMPCONF#<whatsappId>#<number>` so an answer finds its campaign.
 * - message link: `CO#<c>#CMPMSG#<messageId>` / `L` -> the shipping a sent message belongs to (a late send failure
 *   finds its recipient); expires after LINK_TTL_DAYS.
 * - pacing slot: `CO#<c>#CMPPACE#<whatsappId>` / `P`: when the connection may send its next campaign message and how
 *   many it sent (every campaign on that connection shares it).
 */
const LINK_TTL_DAYS = 30;
const slotKey = (companyId: number, whatsappId: number) => ({ pk: `${companyPk(companyId)}#CMPPACE#${whatsappId}`, sk: "P" });
const linkKey = (companyId: number, messageId: string) => ({ pk: `${companyPk(companyId)}#CMPMSG#${messageId}`, sk: "L" });
const DUE_SHARDS = 4;
const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `CMP#${pad(id)}` });
const listPk = (companyId: number) => `${companyPk(companyId)}#CMP`;
const duePk = (shard: number) => `CAMPAIGNS_DUE#${shard}`;
const shippingKey = (companyId: number, campaignId: number, itemId: number) => ({ pk: `${companyPk(companyId)}#CMP#${pad(campaignId)}#SHP`, sk: `S#${pad(itemId)}` });
const awaitingPk = (companyId: number, whatsappId: number, number: string) => `${companyPk(companyId)}#CMPCONF#${whatsappId}#${number}`;

const RUN_DEFAULTS: CampaignRun = {
  stepSeq: 0,
  cursor: null,
  walkDone: false,
  sentCount: 0,
  validCount: 0,
  expectedValid: null,
  deliveredCount: 0,
  failedCount: 0,
  optedOutCount: 0,
  confirmationRequestedCount: 0,
  confirmedCount: 0,
};

const indexFields = (c: Pick<Campaign, "companyId" | "id" | "status" | "scheduledAt">) => ({
  gsi1pk: listPk(c.companyId),
  gsi1sk: pad(c.id),
  ...(c.status === "PROGRAMADA" && c.scheduledAt ? { gsi3pk: duePk(c.id % DUE_SHARDS), gsi3sk: `${c.scheduledAt}#${c.companyId}#${pad(c.id)}` } : {}),
});

const recordFields = mapItem<CampaignRecord>({
  ...CAMPAIGN_FIELDS,
  stepSeq: true,
  cursor: true,
  walkDone: true,
  sentCount: true,
  validCount: true,
  expectedValid: true,
  deliveredCount: true,
  failedCount: true,
  optedOutCount: true,
  confirmationRequestedCount: true,
  confirmedCount: true,
});
const toRecord = (item: Record<string, unknown>): CampaignRecord => ({ ...RUN_DEFAULTS, ...recordFields(item), template: (item.template as CampaignRecord["template"]) ?? null });
const toShipping = mapItem<Shipping>({
  campaignId: true,
  companyId: true,
  itemId: true,
  number: true,
  name: true,
  email: true,
  contactId: true,
  variant: true,
  state: true,
  confirmationRequestedAt: true,
  confirmedAt: true,
  deliveredAt: true,
  error: true,
  createdAt: true,
});
const isConditionFailed = (e: unknown) => (e as { name?: string }).name === "ConditionalCheckFailedException";

/** Counter attributes a shipping change may add to. */
export type CampaignCounter = "validCount" | "deliveredCount" | "failedCount" | "optedOutCount" | "confirmationRequestedCount" | "confirmedCount" | "sentCount";

export const createCampaignsRepository = (db: Db) => {
  const T = db.tableName;

  const addCounters = (companyId: number, id: number, counters: Partial<Record<CampaignCounter, number>>) => {
    const entries = Object.entries(counters).filter(([, n]) => n);
    return {
      Update: {
        TableName: T,
        Key: key(companyId, id),
        UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(", ")}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#c${i}`, k])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, n], i) => [`:c${i}`, n])),
      },
    };
  };

  return {
    async create(companyId: number, fields: CampaignFields, now: Date): Promise<CampaignRecord> {
      const id = await nextId(db, companyId, "campaign");
      const at = now.toISOString();
      const c: CampaignRecord = { ...RUN_DEFAULTS, ...fields, id, companyId, completedAt: null, createdAt: at, updatedAt: at };
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...key(companyId, id), ...indexFields(c), entity: "campaign", ...c } }));
      return c;
    },

    async findById(companyId: number, id: number): Promise<CampaignRecord | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id), ConsistentRead: true }));
      return out.Item ? toRecord(out.Item) : null;
    },

    /**
     * Writes a user's edit of the campaign's fields, only while its status and update time are those the caller read
     * (false when the tick or a job changed it meanwhile). The due index follows the new status.
     */
    async saveFields(before: CampaignRecord, next: Campaign): Promise<boolean> {
      const item = { ...key(next.companyId, next.id), ...indexFields(next), entity: "campaign", ...before, ...next };
      try {
        await db.doc.send(
          new PutCommand({
            TableName: T,
            Item: item,
            ConditionExpression: "#s = :s AND #u = :u",
            ExpressionAttributeNames: { "#s": "status", "#u": "updatedAt" },
            ExpressionAttributeValues: { ":s": before.status, ":u": before.updatedAt },
          }),
        );
        return true;
      } catch (e) {
        if (isConditionFailed(e)) return false;
        throw e;
      }
    },

    async remove(companyId: number, id: number): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: key(companyId, id) }));
    },

    /** One page of the company's campaigns, newest first. */
    async page(companyId: number, limit: number, cursor?: string): Promise<{ items: CampaignRecord[]; next?: string }> {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: T,
          IndexName: "gsi1",
          KeyConditionExpression: cursor ? "gsi1pk = :pk AND gsi1sk < :c" : "gsi1pk = :pk",
          ExpressionAttributeValues: { ":pk": listPk(companyId), ...(cursor ? { ":c": cursor } : {}) },
          ScanIndexForward: false,
          Limit: limit + 1,
        }),
      );
      const items = (out.Items ?? []).map(toRecord);
      if (items.length > limit) return { items: items.slice(0, limit), next: pad(items[limit - 1]!.id) };
      return { items };
    },

    /** PROGRAMADA campaigns whose time has come, from every due shard. */
    async listDue(now: Date, limit = 100): Promise<{ companyId: number; id: number; scheduledAt: string }[]> {
      const shards = await Promise.all(
        Array.from({ length: DUE_SHARDS }, (_, shard) =>
          db.doc.send(
            new QueryCommand({
              TableName: T,
              IndexName: "gsi3",
              KeyConditionExpression: "gsi3pk = :pk AND gsi3sk <= :now",
              ExpressionAttributeValues: { ":pk": duePk(shard), ":now": `${now.toISOString()}#~` },
              Limit: limit,
            }),
          ),
        ),
      );
      return shards.flatMap((o) => o.Items ?? []).map((i) => ({ companyId: Number(i.companyId), id: Number(i.id), scheduledAt: String(i.scheduledAt) }));
    },

    /**
     * Moves the campaign from one status to another if it is still in `from` (two ticks, a cancel racing a start):
     * returns the updated record, or null when the condition did not hold. `startRun` also begins a new job chain.
     */
    async transition(
      companyId: number,
      id: number,
      from: CampaignStatus,
      to: CampaignStatus,
      now: Date,
      extra: { completedAt?: string; bumpSeq?: boolean; scheduledAt?: string } = {},
    ): Promise<CampaignRecord | null> {
      const names: Record<string, string> = { "#s": "status", "#u": "updatedAt" };
      const values: Record<string, unknown> = { ":from": from, ":to": to, ":u": now.toISOString() };
      const sets = ["#s = :to", "#u = :u"];
      const removes = ["gsi3pk", "gsi3sk"];
      if (extra.completedAt) {
        names["#done"] = "completedAt";
        values[":done"] = extra.completedAt;
        sets.push("#done = :done");
      }
      if (extra.scheduledAt) {
        names["#at"] = "scheduledAt";
        values[":at"] = extra.scheduledAt;
      }
      const add = extra.bumpSeq ? " ADD stepSeq :one" : "";
      if (extra.bumpSeq) values[":one"] = 1;
      try {
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, id),
            UpdateExpression: `SET ${sets.join(", ")} REMOVE ${removes.join(", ")}${add}`,
            ConditionExpression: `#s = :from${extra.scheduledAt ? " AND #at = :at" : ""}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: "ALL_NEW",
          }),
        );
        return out.Attributes ? toRecord(out.Attributes) : null;
      } catch (e) {
        if (isConditionFailed(e)) return null;
        throw e;
      }
    },

    /**
     * Claims job step `seq` of a running campaign: moves the chain to `seq + 1` with the new cursor. Only one caller
     * wins (a duplicate delivery of the same job loses here and does nothing). `walkDone` marks the list's end.
     */
    async advance(companyId: number, id: number, seq: number, cursor: string | null, walkDone: boolean, now: Date): Promise<boolean> {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, id),
            UpdateExpression: "SET stepSeq = :next, #cur = :cur, walkDone = :wd, #u = :u",
            ConditionExpression: "#s = :running AND (stepSeq = :seq OR (attribute_not_exists(stepSeq) AND :seq = :zero))",
            ExpressionAttributeNames: { "#s": "status", "#cur": "cursor", "#u": "updatedAt" },
            ExpressionAttributeValues: { ":next": seq + 1, ":cur": cursor, ":wd": walkDone, ":u": now.toISOString(), ":running": "EM_ANDAMENTO", ":seq": seq, ":zero": 0 },
          }),
        );
        return true;
      } catch (e) {
        if (isConditionFailed(e)) return false;
        throw e;
      }
    },

    /** Marks FINALIZADA if it is still running with exactly the counters the caller read (no change raced it). */
    async finish(c: CampaignRecord, now: Date): Promise<CampaignRecord | null> {
      try {
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(c.companyId, c.id),
            UpdateExpression: "SET #s = :done, completedAt = :at, #u = :at",
            ConditionExpression: "#s = :running AND walkDone = :true AND deliveredCount = :d AND failedCount = :f AND validCount = :v",
            ExpressionAttributeNames: { "#s": "status", "#u": "updatedAt" },
            ExpressionAttributeValues: {
              ":done": "FINALIZADA",
              ":at": now.toISOString(),
              ":running": "EM_ANDAMENTO",
              ":true": true,
              ":d": c.deliveredCount,
              ":f": c.failedCount,
              ":v": c.validCount,
            },
            ReturnValues: "ALL_NEW",
          }),
        );
        return out.Attributes ? toRecord(out.Attributes) : null;
      } catch (e) {
        if (isConditionFailed(e)) return null;
        throw e;
      }
    },

    async findShipping(companyId: number, campaignId: number, itemId: number): Promise<Shipping | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: shippingKey(companyId, campaignId, itemId), ConsistentRead: true }));
      return out.Item ? toShipping(out.Item) : null;
    },

    /** Creates a recipient's shipping record once (and counts it valid); false when it already exists. */
    async createShipping(s: Shipping): Promise<boolean> {
      try {
        await transact(db, [
          {
            Put: {
              TableName: T,
              Item: { ...shippingKey(s.companyId, s.campaignId, s.itemId), entity: "campaignShipping", ...s },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          addCounters(s.companyId, s.campaignId, { validCount: 1 }),
        ]);
        return true;
      } catch (e) {
        if (e instanceof TxConditionFailed) return false;
        throw e;
      }
    },

    /**
     * Moves a shipping record from one state to another and adds to the campaign's counters, in one transaction,
     * only if it is still in `from` (so each counter moves once). `whatsappId` is needed to index an awaiting record.
     */
    async moveShipping(
      s: Shipping,
      from: ShippingState,
      to: ShippingState,
      fields: Partial<Pick<Shipping, "confirmationRequestedAt" | "confirmedAt" | "deliveredAt" | "error" | "contactId">>,
      counters: Partial<Record<CampaignCounter, number>>,
      awaitingOn?: number,
    ): Promise<boolean> {
      const sets: Record<string, unknown> = { state: to, ...fields };
      const entries = Object.entries(sets);
      const names: Record<string, string> = Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k]));
      const values: Record<string, unknown> = Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v]));
      let expr = `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(", ")}`;
      if (awaitingOn !== undefined) {
        names["#g1p"] = "gsi1pk";
        names["#g1s"] = "gsi1sk";
        values[":g1p"] = awaitingPk(s.companyId, awaitingOn, s.number);
        values[":g1s"] = `${pad(s.campaignId)}#${pad(s.itemId)}`;
        expr += ", #g1p = :g1p, #g1s = :g1s";
      } else if (from === "awaiting") expr += " REMOVE gsi1pk, gsi1sk";
      names["#state"] = "state";
      values[":from"] = from;
      const items = [
        {
          Update: {
            TableName: T,
            Key: shippingKey(s.companyId, s.campaignId, s.itemId),
            UpdateExpression: expr,
            ConditionExpression: "#state = :from",
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
      ];
      const hasCounters = Object.values(counters).some((n) => n);
      try {
        await transact(db, hasCounters ? [...items, addCounters(s.companyId, s.campaignId, counters)] : items);
        return true;
      } catch (e) {
        if (e instanceof TxConditionFailed) return false;
        throw e;
      }
    },

    async setExpectedValid(companyId: number, id: number, n: number): Promise<void> {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, id),
            UpdateExpression: "SET expectedValid = :n",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":n": n },
          }),
        );
      } catch (e) {
        if (!isConditionFailed(e)) throw e; // deleted meanwhile
      }
    },

    /**
     * Takes the connection's next sending slot when it is due: `{ at }` is when the slot after this one opens
     * (now + the spacing for this message). `{ waitMs }` when the slot is not open yet or another sender took it first.
     */
    async takeSlot(companyId: number, whatsappId: number, now: Date, spacingSeconds: (sent: number) => number): Promise<{ at: Date } | { waitMs: number }> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: slotKey(companyId, whatsappId), ConsistentRead: true }));
      const nextAt = typeof out.Item?.nextAt === "string" ? out.Item.nextAt : null;
      const sent = Number(out.Item?.sent ?? 0);
      if (nextAt && new Date(nextAt).getTime() > now.getTime()) return { waitMs: new Date(nextAt).getTime() - now.getTime() };
      const at = new Date(now.getTime() + spacingSeconds(sent + 1) * 1000);
      try {
        await db.doc.send(
          new PutCommand({
            TableName: T,
            Item: { ...slotKey(companyId, whatsappId), entity: "campaignPacing", nextAt: at.toISOString(), sent: sent + 1 },
            ConditionExpression: nextAt ? "nextAt = :old" : "attribute_not_exists(pk)",
            ...(nextAt ? { ExpressionAttributeValues: { ":old": nextAt } } : {}),
          }),
        );
        return { at };
      } catch (e) {
        if (isConditionFailed(e)) return { waitMs: 1000 };
        throw e;
      }
    },

    /** Deletes up to `limit` shipping records of a (deleted) campaign; true when some may remain. */
    async purgeShippingPage(companyId: number, campaignId: number, limit = 100): Promise<boolean> {
      const pk = shippingKey(companyId, campaignId, 0).pk;
      const out = await db.doc.send(
        new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk }, ProjectionExpression: "pk, sk", Limit: limit }),
      );
      const keys = (out.Items ?? []).map((i) => ({ pk: i.pk, sk: i.sk }));
      for (let i = 0; i < keys.length; i += 25) {
        let requests: Record<string, unknown>[] | undefined = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
        // unprocessed deletes (throttling) are retried until none is left
        while (requests?.length) {
          const res = await db.doc.send(new BatchWriteCommand({ RequestItems: { [T]: requests } }));
          requests = res.UnprocessedItems?.[T] as Record<string, unknown>[] | undefined;
        }
      }
      return Boolean(out.LastEvaluatedKey);
    },

    /** Remembers which recipient a campaign message was sent to (written before the send). */
    async linkMessage(companyId: number, messageId: string, campaignId: number, itemId: number, now: Date): Promise<void> {
      await db.doc.send(
        new PutCommand({
          TableName: T,
          Item: { ...linkKey(companyId, messageId), entity: "campaignMessage", campaignId, itemId, ttl: Math.floor(now.getTime() / 1000) + LINK_TTL_DAYS * 86_400 },
        }),
      );
    },

    async findMessageLink(companyId: number, messageId: string): Promise<{ campaignId: number; itemId: number } | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: linkKey(companyId, messageId) }));
      return out.Item ? { campaignId: Number(out.Item.campaignId), itemId: Number(out.Item.itemId) } : null;
    },

    /** Shipping records awaiting a confirmation from this number on this connection (oldest campaign first). */
    async listAwaiting(companyId: number, whatsappId: number, number: string): Promise<Shipping[]> {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: T,
          IndexName: "gsi1",
          KeyConditionExpression: "gsi1pk = :pk",
          ExpressionAttributeValues: { ":pk": awaitingPk(companyId, whatsappId, number) },
          Limit: 20,
        }),
      );
      return (out.Items ?? []).map(toShipping);
    },
  };
};
export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
