import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { DEFAULT_THROUGHPUT_PER_SECOND, PAIR_RATE_MS } from "@atende/shared/domain/cloud-api/cloud-api-connection";
import type { Db } from "../../../platform/db/client";
import type { SendGates } from "../../../platform/channels/cloud-api/throughput-limiter";

const isConditionFailure = (e: unknown) => (e as Error).name === "ConditionalCheckFailedException";

/**
 * The Cloud API pacing gates shared by every Lambda (docs/adr/0028): a counter per phone number and second (a send
 * takes the first second with room, up to `perSecond`), and per phone number and recipient the time the next
 * campaign message may go (each reservation moves it 6 s on). Items expire after an hour.
 */
export const createDynamoGates = (db: Db, opts: { pairIntervalMs?: number; maxSecondsAhead?: number } = {}): SendGates => {
  const T = db.tableName;
  const ttl = (ms: number) => Math.floor(ms / 1000) + 3600;
  return {
    async throughput(phone, perSecond, now) {
      const limit = Math.max(1, perSecond || DEFAULT_THROUGHPUT_PER_SECOND);
      const first = Math.floor(now / 1000);
      for (let s = first; s < first + (opts.maxSecondsAhead ?? 60); s++) {
        try {
          await db.doc.send(
            new UpdateCommand({
              TableName: T,
              Key: { pk: `CARATE#${phone}`, sk: String(s) },
              UpdateExpression: "ADD n :one SET #ttl = :ttl",
              ConditionExpression: "attribute_not_exists(n) OR n < :limit",
              ExpressionAttributeNames: { "#ttl": "ttl" },
              ExpressionAttributeValues: { ":one": 1, ":limit": limit, ":ttl": ttl(now) },
            }),
          );
          return Math.max(0, s * 1000 - now);
        } catch (e) {
          if (!isConditionFailure(e)) throw e;
        }
      }
      return (opts.maxSecondsAhead ?? 60) * 1000;
    },
    async pair(phone, recipient, now) {
      const interval = opts.pairIntervalMs ?? PAIR_RATE_MS;
      const Key = { pk: `CAPAIR#${phone}#${recipient}`, sk: "CAPAIR" };
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key,
            UpdateExpression: "SET nextAt = :next, #ttl = :ttl",
            ConditionExpression: "attribute_not_exists(nextAt) OR nextAt <= :now",
            ExpressionAttributeNames: { "#ttl": "ttl" },
            ExpressionAttributeValues: { ":next": now + interval, ":now": now, ":ttl": ttl(now) },
          }),
        );
        return 0;
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
      }
      // busy: take the slot after the last one reserved (atomic increment)
      const out = await db.doc.send(
        new UpdateCommand({ TableName: T, Key, UpdateExpression: "ADD nextAt :i", ExpressionAttributeValues: { ":i": interval }, ReturnValues: "UPDATED_NEW" }),
      );
      return Math.max(0, Number(out.Attributes?.nextAt) - interval - now);
    },
  };
};
