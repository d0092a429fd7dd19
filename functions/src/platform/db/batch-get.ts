import { BatchGetCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "./client";

/** DynamoDB's ceiling of keys per BatchGetItem call. */
const KEYS_PER_CALL = 100;
/** Calls in flight at once for a long key list. */
const PARALLEL_CALLS = 4;
/** Rounds of retries for keys DynamoDB answers as unprocessed (throttled or over 16 MB), with a growing pause. */
const RETRY_ROUNDS = 8;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads many items by key: 100 keys per call, a few calls side by side, and the keys DynamoDB leaves unprocessed
 * asked again (with backoff) until every key is answered, as the BatchGetItem contract requires of its callers.
 * Missing items are simply absent from the answer; order is not kept. `attributes` reads only those attributes of
 * each item (a projection); `consistent` asks for strongly consistent reads.
 */
export const batchGetAll = async (db: Db, keys: Record<string, unknown>[], opts: { consistent?: boolean; attributes?: readonly string[] } = {}): Promise<Record<string, unknown>[]> => {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_CALL) chunks.push(keys.slice(i, i + KEYS_PER_CALL));
  const found: Record<string, unknown>[] = [];
  const projection = opts.attributes?.length
    ? {
        ProjectionExpression: opts.attributes.map((_, i) => `#a${i}`).join(", "),
        ExpressionAttributeNames: Object.fromEntries(opts.attributes.map((name, i) => [`#a${i}`, name])),
      }
    : {};
  const readChunk = async (chunk: Record<string, unknown>[]) => {
    let pending: Record<string, unknown>[] | undefined = chunk;
    for (let round = 0; pending?.length; round++) {
      if (round > RETRY_ROUNDS) throw new Error(`BatchGetItem: ${pending.length} keys still unprocessed after ${RETRY_ROUNDS} retries`);
      if (round > 0) await pause(Math.min(1000, 25 * 2 ** round));
      const out = await db.doc.send(new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: pending, ConsistentRead: opts.consistent, ...projection } } }));
      found.push(...(out.Responses?.[db.tableName] ?? []));
      pending = out.UnprocessedKeys?.[db.tableName]?.Keys as Record<string, unknown>[] | undefined;
    }
  };
  for (let i = 0; i < chunks.length; i += PARALLEL_CALLS) await Promise.all(chunks.slice(i, i + PARALLEL_CALLS).map(readChunk));
  return found;
};
