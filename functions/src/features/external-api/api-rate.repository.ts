import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";

const WINDOW_SECONDS = 60;

/** Messages accepted per connection token in fixed one-minute windows (items expire by TTL). */
export const createApiRateRepository = (db: Db) => {
  const bucket = (now: Date) => Math.floor(now.getTime() / 1000 / WINDOW_SECONDS);
  return {
    /** Counts `n` more messages of the connection in this minute and returns the minute's total. */
    async take(companyId: number, whatsappId: number, n: number, now: Date): Promise<number> {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: { pk: `${companyPk(companyId)}#APIRATE#${whatsappId}`, sk: String(bucket(now)) },
          UpdateExpression: "ADD #c :n SET #t = :ttl",
          ExpressionAttributeNames: { "#c": "count", "#t": "ttl" },
          ExpressionAttributeValues: { ":n": n, ":ttl": (bucket(now) + 2) * WINDOW_SECONDS },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      return Number(out.Attributes?.count ?? n);
    },
  };
};
export type ApiRateRepository = ReturnType<typeof createApiRateRepository>;
