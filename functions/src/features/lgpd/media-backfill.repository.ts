import { QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";
import { mediaDayPk } from "./media-retention.repository";
import { retentionRegistryKey } from "./lgpd-settings.repository";

/**
 * The one-time backfill of the media-by-day index (docs/adr/0044): messages stored before the index existed carry
 * a media key but no gsi3. Walks one company's contacts (`CO#<c>` / `CONTACT#…`, in key order: the cursor is the
 * last contact's key) and each contact's conversation (gsi2 `CO#<c>#CMSG#<contactId>`), and gives every message
 * with a stored, unexpired file and no day index its entry (`MEDIADAY#<day of the message>`). Like the erasure
 * (docs/adr/0030), it reads the inbox's keys itself: the retention rules stay in this feature.
 * Progress lives on the company's retention registry item (`PLATFORM` / `MEDIARET#<c>`):
 * `backfillCursor` while it runs, `backfilledAt` once done, `backfillMinDay` the oldest day it indexed.
 */
export type UnindexedMedia = { pk: string; sk: string; id: string; createdAt: string };
export type BackfillState = { backfilledAt: string | null; cursor: string | null; minDay: string | null };

export const createMediaBackfillRepository = (db: Db) => {
  const T = db.tableName;
  return {
    /** Up to `limit` contact ids after `cursor` (a contact's sort key), in key order; `next` null at the end. */
    async contactsPage(companyId: number, limit: number, cursor: string | null): Promise<{ ids: number[]; next: string | null }> {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: T,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
          ProjectionExpression: "pk, sk, #id",
          ExpressionAttributeNames: { "#id": "id" },
          ExpressionAttributeValues: { ":pk": companyPk(companyId), ":p": "CONTACT#" },
          Limit: limit,
          ...(cursor ? { ExclusiveStartKey: { pk: companyPk(companyId), sk: cursor } } : {}),
        }),
      );
      const items = out.Items ?? [];
      const ids = items.map((i) => Number(i.id ?? String(i.sk).slice("CONTACT#".length))).filter((n) => Number.isFinite(n));
      return { ids, next: out.LastEvaluatedKey ? String(out.LastEvaluatedKey.sk) : null };
    },
    /** A contact's messages with a stored file (not expired) and no day index. */
    async unindexedOfContact(companyId: number, contactId: number): Promise<UnindexedMedia[]> {
      const found: UnindexedMedia[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            IndexName: "gsi2",
            KeyConditionExpression: "gsi2pk = :pk",
            FilterExpression: "entity = :m AND attribute_type(mediaKey, :s) AND attribute_not_exists(gsi3pk) AND attribute_not_exists(mediaExpiredAt)",
            ProjectionExpression: "pk, sk, #id, createdAt",
            ExpressionAttributeNames: { "#id": "id" },
            ExpressionAttributeValues: { ":pk": `${companyPk(companyId)}#CMSG#${contactId}`, ":m": "message", ":s": "S" },
            ExclusiveStartKey: start,
          }),
        );
        for (const i of out.Items ?? []) found.push({ pk: String(i.pk), sk: String(i.sk), id: String(i.id), createdAt: String(i.createdAt) });
        start = out.LastEvaluatedKey;
      } while (start);
      return found;
    },
    /** The message joins its day's index (idempotent: only while it still has a file and no index). */
    async index(companyId: number, m: UnindexedMedia): Promise<boolean> {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: { pk: m.pk, sk: m.sk },
            UpdateExpression: "SET gsi3pk = :gpk, gsi3sk = :gsk",
            ConditionExpression: "attribute_exists(pk) AND attribute_type(mediaKey, :s) AND attribute_not_exists(gsi3pk) AND attribute_not_exists(mediaExpiredAt)",
            ExpressionAttributeValues: { ":gpk": mediaDayPk(companyId, m.createdAt.slice(0, 10)), ":gsk": `${m.createdAt}#${m.id}`, ":s": "S" },
          }),
        );
        return true;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return false;
        throw e;
      }
    },
    /** Saves the walk's position (only while retention is on: turning it off stops the backfill too). */
    async saveProgress(companyId: number, cursor: string, minDay: string | null): Promise<void> {
      await db.doc
        .send(
          new UpdateCommand({
            TableName: T,
            Key: retentionRegistryKey(companyId),
            UpdateExpression: minDay ? "SET backfillCursor = :c, backfillMinDay = :d" : "SET backfillCursor = :c",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":c": cursor, ...(minDay ? { ":d": minDay } : {}) },
          }),
        )
        .catch((e: Error) => {
          if (e.name !== "ConditionalCheckFailedException") throw e;
        });
    },
    /**
     * The walk is over: marked done, and the swept-through day moved back before the oldest indexed day when the
     * sweep had already passed it (those days are walked again, now with the old media in their index).
     */
    async finish(companyId: number, now: Date, minDay: string | null, doneThrough: string | null): Promise<void> {
      const rewind = minDay !== null && doneThrough !== null && minDay <= doneThrough;
      const values: Record<string, unknown> = { ":now": now.toISOString() };
      let update = "SET backfilledAt = :now";
      if (minDay) {
        update += ", backfillMinDay = :d";
        values[":d"] = minDay;
      }
      if (rewind) {
        update += ", doneThrough = :back";
        values[":back"] = new Date(Date.parse(`${minDay}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      }
      update += " REMOVE backfillCursor";
      await db.doc
        .send(new UpdateCommand({ TableName: T, Key: retentionRegistryKey(companyId), UpdateExpression: update, ConditionExpression: "attribute_exists(pk)", ExpressionAttributeValues: values }))
        .catch((e: Error) => {
          if (e.name !== "ConditionalCheckFailedException") throw e;
        });
    },
  };
};
export type MediaBackfillRepository = ReturnType<typeof createMediaBackfillRepository>;
