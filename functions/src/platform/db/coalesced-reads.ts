import { AsyncLocalStorage } from "node:async_hooks";
import { BatchGetCommand, GetCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "./client";

/**
 * Point reads made side by side, answered by one BatchGetItem (docs/adr/0040). Inside `coalescedReads(db, fn)`,
 * every GetItem and BatchGetItem (whole items, one table) that `fn`'s code sends through
 * `db` in the same turn of the event loop is collected and read in one BatchGetItem call (100 keys per call; keys
 * DynamoDB leaves unprocessed asked again; strongly consistent when any of them asked so), each caller answered as
 * if its own call had run. Outside such a scope, and for projections, calls go through untouched. The ticket list uses it for its cards:
 * the contacts and the queues, users, connections and tags they name are read by other features' repositories
 * (through their ports), and would otherwise be one call each.
 */
type Key = Record<string, unknown>;
type Waiter = { keys: Key[]; consistent: boolean; resolve: (items: (Record<string, unknown> | undefined)[]) => void; reject: (e: unknown) => void };
type Batch = { table: string; waiters: Waiter[]; scheduled: boolean };

const scope = new AsyncLocalStorage<Map<string, Batch>>();
const KEYS_PER_CALL = 100;
const RETRY_ROUNDS = 8;
const patched = new WeakSet<object>();
const keyId = (k: Key) =>
  JSON.stringify(
    Object.keys(k)
      .sort()
      .map((n) => [n, k[n]]),
  );

type Send = (command: unknown, ...rest: unknown[]) => Promise<unknown>;

const install = (db: Db) => {
  const doc = db.doc as unknown as { send: Send };
  if (patched.has(doc)) return;
  patched.add(doc);
  const original: Send = doc.send.bind(doc);

  const flush = async (batch: Batch) => {
    const waiters = batch.waiters.splice(0);
    batch.scheduled = false;
    const unique = new Map<string, Key>();
    for (const w of waiters) for (const k of w.keys) unique.set(keyId(k), k);
    const found = new Map<string, Record<string, unknown>>();
    // one strongly consistent read answers everyone when anyone asked for one (never staler than asked)
    const consistent = waiters.some((w) => w.consistent);
    try {
      const all = [...unique.values()];
      const chunks: Key[][] = [];
      for (let i = 0; i < all.length; i += KEYS_PER_CALL) chunks.push(all.slice(i, i + KEYS_PER_CALL));
      await Promise.all(
        chunks.map(async (chunk) => {
          let pending: Key[] | undefined = chunk;
          for (let round = 0; pending?.length; round++) {
            if (round > RETRY_ROUNDS) throw new Error(`BatchGetItem: ${pending.length} keys still unprocessed`);
            if (round > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** round)));
            const out = (await original(new BatchGetCommand({ RequestItems: { [batch.table]: { Keys: pending, ...(consistent ? { ConsistentRead: true } : {}) } } }))) as {
              Responses?: Record<string, Record<string, unknown>[]>;
              UnprocessedKeys?: Record<string, { Keys?: Key[] }>;
            };
            // the answer's items hold their key attributes (the same names for every key of a table)
            const names = Object.keys(chunk[0]!);
            for (const item of out.Responses?.[batch.table] ?? []) found.set(keyId(Object.fromEntries(names.map((n) => [n, item[n]]))), item);
            pending = out.UnprocessedKeys?.[batch.table]?.Keys;
          }
        }),
      );
    } catch (e) {
      for (const w of waiters) w.reject(e);
      return;
    }
    for (const w of waiters) w.resolve(w.keys.map((k) => found.get(keyId(k))));
  };

  const enqueue = (batches: Map<string, Batch>, table: string, keys: Key[], consistent: boolean) =>
    new Promise<(Record<string, unknown> | undefined)[]>((resolve, reject) => {
      let batch = batches.get(table);
      if (!batch) batches.set(table, (batch = { table, waiters: [], scheduled: false }));
      batch.waiters.push({ keys, consistent, resolve, reject });
      if (!batch.scheduled) {
        batch.scheduled = true;
        const b = batch;
        // after this turn's synchronous code and microtasks: every read started side by side is in the batch
        setImmediate(() => void flush(b));
      }
    });

  doc.send = (command: unknown, ...rest: unknown[]) => {
    const batches = scope.getStore();
    if (!batches || rest.length) return original(command, ...rest);
    if (command instanceof GetCommand) {
      const input = command.input;
      if (input.ProjectionExpression || input.AttributesToGet || !input.TableName || !input.Key) return original(command);
      return enqueue(batches, input.TableName, [input.Key], !!input.ConsistentRead).then(([item]) => ({ $metadata: {}, ...(item ? { Item: item } : {}) }));
    }
    if (command instanceof BatchGetCommand) {
      const tables = Object.entries(command.input.RequestItems ?? {});
      const [entry] = tables;
      if (tables.length !== 1 || !entry) return original(command);
      const [table, req] = entry;
      if (req.ProjectionExpression || req.AttributesToGet || !req.Keys?.length) return original(command);
      return enqueue(batches, table, req.Keys as Key[], !!req.ConsistentRead).then((items) => ({
        $metadata: {},
        Responses: { [table]: items.filter((i): i is Record<string, unknown> => i !== undefined) },
        UnprocessedKeys: {},
      }));
    }
    return original(command);
  };
};

/** Runs `fn` with its point reads through `db` coalesced (see above). */
export const coalescedReads = <T>(db: Db, fn: () => Promise<T>): Promise<T> => {
  install(db);
  return scope.run(new Map(), fn);
};
