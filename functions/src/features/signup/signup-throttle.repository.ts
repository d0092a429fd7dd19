import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";

/** Sign-ups per client address in fixed windows: `THROTTLE#signup#<address>#<window>` (TTL). */
export const createSignupThrottleRepository = (db: Db) => ({
  async hit(address: string, now: Date, windowSeconds: number): Promise<number> {
    const bucket = Math.floor(now.getTime() / 1000 / windowSeconds);
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: { pk: `THROTTLE#signup#${address}#${bucket}`, sk: "THROTTLE" },
        UpdateExpression: "ADD #c :one SET #t = :ttl",
        ExpressionAttributeNames: { "#c": "count", "#t": "ttl" },
        ExpressionAttributeValues: { ":one": 1, ":ttl": (bucket + 2) * windowSeconds },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    return Number(out.Attributes?.count ?? 0);
  },
});
export type SignupThrottleRepository = ReturnType<typeof createSignupThrottleRepository>;
