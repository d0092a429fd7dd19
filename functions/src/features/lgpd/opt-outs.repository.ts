import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { OptOutView } from "@atende/shared/contracts/http/lgpd";
import { batchGetAll } from "../../platform/db/batch-get";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";
import { mergedIndexPage } from "../../platform/db/merged-query";
import { mapItem } from "../../platform/db/map-item";

/**
 * Keys (docs/adr/0030-lgpd-erasure-opt-outs-retention.md):
 * - opt-out: `CO#<c>#OPTOUT` / `N#<number>`: one entry per number (a lookup is one GetItem, a campaign batch one
 *   BatchGet); gsi1 `CO#<c>#OPTOUT#T` / `<optedOutAt>#<number>`: the list, newest first.
 * - campaign reply window: `CO#<c>#OPTWIN#<number>` / `W` -> the campaign that last wrote to the number; expires
 *   (TTL) after CAMPAIGN_REPLY_WINDOW_DAYS, so "a reply to a campaign" is one GetItem on the inbound path.
 */
const pk = (companyId: number) => `${companyPk(companyId)}#OPTOUT`;
const key = (companyId: number, number: string) => ({ pk: pk(companyId), sk: `N#${number}` });
const byTimePk = (companyId: number) => `${companyPk(companyId)}#OPTOUT#T`;
const windowKey = (companyId: number, number: string) => ({ pk: `${companyPk(companyId)}#OPTWIN#${number}`, sk: "W" });

export type OptOutRecord = OptOutView & { companyId: number };
const toOptOut = mapItem<OptOutRecord>({
  companyId: true,
  number: true,
  contactId: true,
  optedOutAt: true,
  message: true,
  source: true,
  campaignId: true,
});

export const createOptOutsRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async find(companyId: number, number: string): Promise<OptOutRecord | null> {
      if (!number) return null;
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, number), ConsistentRead: true }));
      return out.Item ? toOptOut(out.Item) : null;
    },
    /** Which of these numbers are opted out (BatchGet, 100 at a time). */
    async findMany(companyId: number, numbers: string[]): Promise<Set<string>> {
      const unique = [...new Set(numbers.filter(Boolean))];
      const items = await batchGetAll(db, unique.map((n) => key(companyId, n)), { attributes: ["number"] });
      return new Set(items.map((item) => String(item.number)));
    },
    /** Puts the number on the list; an existing entry is kept as it was (the first request counts). False when already there. */
    async add(o: OptOutRecord): Promise<boolean> {
      try {
        await db.doc.send(
          new PutCommand({
            TableName: T,
            Item: { ...key(o.companyId, o.number), gsi1pk: byTimePk(o.companyId), gsi1sk: `${o.optedOutAt}#${o.number}`, entity: "optOut", ...o },
            ConditionExpression: "attribute_not_exists(pk)",
          }),
        );
        return true;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return false;
        throw e;
      }
    },
    async remove(companyId: number, number: string): Promise<OptOutRecord | null> {
      const out = await db.doc.send(new DeleteCommand({ TableName: T, Key: key(companyId, number), ReturnValues: "ALL_OLD" }));
      return out.Attributes ? toOptOut(out.Attributes) : null;
    },
    /** One page of the list, newest first. */
    async pageByTime(companyId: number, limit: number, cursor?: string) {
      const out = await mergedIndexPage(db, [{ index: "gsi1", pk: byTimePk(companyId) }], { limit, cursor });
      return { items: out.items.map(toOptOut), next: out.next };
    },
    /** Entries whose number starts with the digits given (the list's search), at most `limit`. */
    async searchNumberPrefix(companyId: number, prefix: string, limit: number): Promise<OptOutRecord[]> {
      const out = await db.doc.send(
        new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)", ExpressionAttributeValues: { ":pk": pk(companyId), ":p": `N#${prefix}` }, Limit: limit }),
      );
      return (out.Items ?? []).map(toOptOut);
    },
    async count(companyId: number): Promise<number> {
      let total = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk(companyId) }, Select: "COUNT", ExclusiveStartKey: start }));
        total += out.Count ?? 0;
        start = out.LastEvaluatedKey;
      } while (start);
      return total;
    },
    /** Remembers that a campaign just wrote to this number (a reply within the window is a reply to it). */
    async noteCampaignMessage(companyId: number, number: string, campaignId: number, now: Date, windowDays: number): Promise<void> {
      await db.doc.send(
        new PutCommand({
          TableName: T,
          Item: { ...windowKey(companyId, number), entity: "optOutWindow", campaignId, at: now.toISOString(), ttl: Math.floor(now.getTime() / 1000) + windowDays * 86_400 },
        }),
      );
    },
    /** The campaign that wrote to this number within the window, or null (TTL may lag: the time is checked too). */
    async campaignWindow(companyId: number, number: string, now: Date): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: windowKey(companyId, number) }));
      if (!out.Item || Number(out.Item.ttl) * 1000 < now.getTime()) return null;
      return Number(out.Item.campaignId);
    },
    async removeCampaignWindow(companyId: number, number: string): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: windowKey(companyId, number) }));
    },
  };
};
export type OptOutsRepository = ReturnType<typeof createOptOutsRepository>;
