import { DeleteCommand, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";

/**
 * Failed-login counters per client address and per email, in fixed windows.
 * Not tenant data (no company is known before login), so they live under their own THROTTLE# keys with a TTL.
 */
export const createLoginThrottleRepository = (db: Db, windowSeconds: number) => {
  const bucket = (now: Date) => Math.floor(now.getTime() / 1000 / windowSeconds);
  const key = (subject: string, now: Date) => ({ pk: `THROTTLE#login#${subject}#${bucket(now)}`, sk: "THROTTLE" });
  return {
    async failures(subject: string, now: Date): Promise<number> {
      const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(subject, now) }));
      return Number(out.Item?.count ?? 0);
    },
    async recordFailure(subject: string, now: Date): Promise<void> {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key(subject, now),
          UpdateExpression: "ADD #c :one SET #t = :ttl",
          ExpressionAttributeNames: { "#c": "count", "#t": "ttl" },
          ExpressionAttributeValues: { ":one": 1, ":ttl": (bucket(now) + 2) * windowSeconds },
        }),
      );
    },
    async clear(subject: string, now: Date): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: key(subject, now) }));
    },
  };
};
export type LoginThrottleRepository = ReturnType<typeof createLoginThrottleRepository>;
