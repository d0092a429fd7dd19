import { QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";

/**
 * The media-by-day index (docs/adr/0030-lgpd-erasure-opt-outs-retention.md): a message with a stored media file
 * carries gsi3 `CO#<c>#MEDIADAY#<yyyy-mm-dd>` / `<createdAt>#<id>` (written by the messages repository when the
 * message is stored; messages use no other gsi3). The retention sweep reads one company's one day at a time,
 * and an expired message leaves the index, so a day is never read twice.
 */
export const mediaDayPk = (companyId: number, day: string) => `${companyPk(companyId)}#MEDIADAY#${day}`;

export type DayMedia = { pk: string; sk: string; id: string; mediaKey: string; createdAt: string };

export const createMediaRetentionRepository = (db: Db) => {
  const T = db.tableName;
  return {
    /** Up to `limit` messages with media stored on that day (their media not yet expired). */
    async listDay(companyId: number, day: string, limit: number): Promise<DayMedia[]> {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: T,
          IndexName: "gsi3",
          KeyConditionExpression: "gsi3pk = :pk",
          ExpressionAttributeValues: { ":pk": mediaDayPk(companyId, day) },
          Limit: limit,
        }),
      );
      return (out.Items ?? []).map((i) => ({ pk: String(i.pk), sk: String(i.sk), id: String(i.id), mediaKey: String(i.mediaKey ?? ""), createdAt: String(i.createdAt) }));
    },
    /** The message keeps its type and text; its file is gone ("mídia expirada") and it leaves the index. */
    async markExpired(m: DayMedia, now: Date): Promise<void> {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: { pk: m.pk, sk: m.sk },
            UpdateExpression: "SET mediaExpiredAt = :now, mediaUrl = :null, mediaKey = :null, updatedAt = :now REMOVE gsi3pk, gsi3sk",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":now": now.toISOString(), ":null": null },
          }),
        );
      } catch (e) {
        if ((e as Error).name !== "ConditionalCheckFailedException") throw e;
      }
    },
  };
};
export type MediaRetentionRepository = ReturnType<typeof createMediaRetentionRepository>;
