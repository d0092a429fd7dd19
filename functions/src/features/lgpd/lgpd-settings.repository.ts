import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { DEFAULT_LGPD_SETTINGS, type LgpdSettings } from "@atende/shared/domain/lgpd/lgpd-settings";
import type { Db } from "../../platform/db/client";
import { companyPk, PLATFORM_PK } from "../../platform/db/keys";
import { queryPrefix } from "../../platform/db/query-prefix";
import { transact, type TxItem } from "../../platform/db/transact";

/**
 * Keys (docs/adr/0030-lgpd-erasure-opt-outs-retention.md):
 * - settings: `CO#<c>` / `LGPD#SETTINGS` (not `SETTING#...`: the spec's settings list reads that prefix).
 * - retention registry: `PLATFORM` / `MEDIARET#<companyId>` -> { days, doneThrough }: only the companies that
 *   turned media retention on, so the daily job reads this small set and never the list of every company.
 *   Written in the same transaction as the setting.
 */
const key = (companyId: number) => ({ pk: companyPk(companyId), sk: "LGPD#SETTINGS" });
const registryKey = (companyId: number) => ({ pk: PLATFORM_PK, sk: `MEDIARET#${companyId}` });
/** The registry item also keeps the one-time index backfill's progress (media-backfill.repository.ts, ADR 0044). */
export const retentionRegistryKey = registryKey;

export type RetentionEntry = {
  companyId: number;
  days: number;
  /** last media day (yyyy-mm-dd) already swept, null before the first run */
  doneThrough: string | null;
  /** the media stored before the day index: indexed once (docs/adr/0044); null until that walk ended */
  backfilledAt: string | null;
  backfillCursor: string | null;
  /** the oldest day the backfill indexed (a first sweep starts there when older than the company) */
  backfillMinDay: string | null;
};
const str = (v: unknown) => (typeof v === "string" ? v : null);
const toEntry = (companyId: number, i: Record<string, unknown>): RetentionEntry => ({
  companyId,
  days: Number(i.days),
  doneThrough: str(i.doneThrough),
  backfilledAt: str(i.backfilledAt),
  backfillCursor: str(i.backfillCursor),
  backfillMinDay: str(i.backfillMinDay),
});

const fromItem = (item: Record<string, unknown> | undefined): LgpdSettings => ({
  optOutKeywords: Array.isArray(item?.optOutKeywords) ? (item.optOutKeywords as string[]) : [...DEFAULT_LGPD_SETTINGS.optOutKeywords],
  optOutConfirmation: typeof item?.optOutConfirmation === "string" ? item.optOutConfirmation : DEFAULT_LGPD_SETTINGS.optOutConfirmation,
  optOutInAnyTicket: typeof item?.optOutInAnyTicket === "boolean" ? item.optOutInAnyTicket : DEFAULT_LGPD_SETTINGS.optOutInAnyTicket,
  mediaRetentionDays: typeof item?.mediaRetentionDays === "number" ? item.mediaRetentionDays : null,
});

export const createLgpdSettingsRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async get(companyId: number): Promise<LgpdSettings> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId) }));
      return fromItem(out.Item);
    },
    /** Saves the settings and keeps the retention registry in step (on: entry with the days; off: no entry). */
    async save(companyId: number, next: LgpdSettings, now: Date): Promise<void> {
      const items: TxItem[] = [{ Put: { TableName: T, Item: { ...key(companyId), entity: "lgpdSettings", companyId, ...next, updatedAt: now.toISOString() } } }];
      if (next.mediaRetentionDays === null) items.push({ Delete: { TableName: T, Key: registryKey(companyId) } });
      else
        items.push({
          Update: {
            TableName: T,
            Key: registryKey(companyId),
            UpdateExpression: "SET entity = :e, companyId = :c, days = :d",
            ExpressionAttributeValues: { ":e": "mediaRetention", ":c": companyId, ":d": next.mediaRetentionDays },
          },
        });
      await transact(db, items);
    },
    /** Every company with media retention on (the registry: one bounded partition prefix). */
    async listRetention(): Promise<RetentionEntry[]> {
      const items = await queryPrefix(db, PLATFORM_PK, "MEDIARET#");
      return items.map((i) => toEntry(Number(i.companyId), i));
    },
    async findRetention(companyId: number): Promise<RetentionEntry | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: registryKey(companyId), ConsistentRead: true }));
      return out.Item ? toEntry(companyId, out.Item) : null;
    },
    /** Claims the daily run for `day` (yyyy-mm-dd): true for the first caller that day, false for every other. */
    async claimDailyRun(day: string): Promise<boolean> {
      try {
        await transact(db, [
          {
            Update: {
              TableName: T,
              Key: { pk: PLATFORM_PK, sk: "MEDIARET_RUN" },
              UpdateExpression: "SET entity = :e, lastDay = :d",
              ConditionExpression: "attribute_not_exists(lastDay) OR lastDay < :d",
              ExpressionAttributeValues: { ":e": "mediaRetentionRun", ":d": day },
            },
          },
        ]);
        return true;
      } catch (e) {
        if ((e as Error).name === "TxConditionFailed") return false;
        throw e;
      }
    },
    /** Moves the swept-through day forward (only while the entry exists: turning retention off stops the sweep). */
    async markSwept(companyId: number, day: string): Promise<void> {
      try {
        await transact(db, [
          {
            Update: {
              TableName: T,
              Key: registryKey(companyId),
              UpdateExpression: "SET doneThrough = :d",
              ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(doneThrough) OR doneThrough < :d)",
              ExpressionAttributeValues: { ":d": day },
            },
          },
        ]);
      } catch (e) {
        if ((e as Error).name !== "TxConditionFailed") throw e;
      }
    },
  };
};
export type LgpdSettingsRepository = ReturnType<typeof createLgpdSettingsRepository>;
