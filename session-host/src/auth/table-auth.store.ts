import { BatchGetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../platform/db";
import { cancellationCodes, isConditionFailure, retryConflicts } from "../platform/db";
import type { HeldLease, LeaseRepository } from "../leases/lease.repository";
import type { AuthStore, SessionIdentity } from "../providers/provider.port";
import { decodeAuthValue, encodeAuthValue } from "./auth-codec";

/** Reads and writes that reached the table (benchmarks: key-store traffic per message). */
export type AuthStoreStats = { reads: number; writes: number; cacheHits: number };

export class LeaseLostError extends Error {
  constructor() {
    super("this host no longer holds the connection's lease");
    this.name = "LeaseLostError";
  }
}

const authPk = (id: SessionIdentity) => `CO#${id.companyId}#WAAUTH#${id.whatsappId}`;
const TRANSACT_MAX = 99; // 100 actions per transaction, one of them the lease check

/** The lease check is the first action of every auth transaction. */
const LEASE_ACTION = 0;

type Action = { put: { sk: string; value: string } } | { del: string };

/**
 * The auth state of one connection (creds and every signal key type) in the table, never in local files.
 * A read-through cache sits in front (signal keys are read on every message). Every write carries the
 * condition that this host still holds the lease.
 * - Only that condition failing means the lease is lost (LeaseLostError, onLeaseLost).
 * - DynamoDB also cancels a transaction that meets another in-flight one on the lease item (a heartbeat, a
 *   write of another part of the auth): such conflicts are retried with backoff, never taken for a lost lease.
 * - Writes of one connection run one at a time, in call order (creds saves included), so a later creds save
 *   can never be overwritten by an earlier one and the connection's writes do not conflict with each other.
 */
export const createTableAuthStore = (deps: { db: Db; leases: LeaseRepository; held: () => HeldLease; onLeaseLost: () => void }) => {
  const { db, leases } = deps;
  const stats: AuthStoreStats & { conflictRetries: number } = { reads: 0, writes: 0, cacheHits: 0, conflictRetries: 0 };
  const cache = new Map<string, unknown>();
  const pkOf = () => authPk(deps.held().identity);
  let queue: Promise<unknown> = Promise.resolve();
  /** runs `task` after every write queued before it; a failed write does not block the next ones */
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const writeChunk = async (chunk: Action[]) => {
    const pk = pkOf();
    const send = () =>
      db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { ConditionCheck: leases.holdsCondition(deps.held()) },
            ...chunk.map((a) =>
              "put" in a ? { Put: { TableName: db.tableName, Item: { pk, sk: a.put.sk, v: a.put.value } } } : { Delete: { TableName: db.tableName, Key: { pk, sk: a.del } } },
            ),
          ],
        }),
      );
    try {
      await retryConflicts(send, { onRetry: () => stats.conflictRetries++ });
      stats.writes += chunk.length;
    } catch (err) {
      if (isConditionFailure(err)) throw leaseLost();
      if (cancellationCodes(err)[LEASE_ACTION] === "ConditionalCheckFailed") throw leaseLost();
      throw err;
    }
  };
  const leaseLost = () => {
    deps.onLeaseLost();
    return new LeaseLostError();
  };

  const write = async (actions: Action[]) => {
    for (let i = 0; i < actions.length; i += TRANSACT_MAX) await writeChunk(actions.slice(i, i + TRANSACT_MAX));
  };
  const actionsOf = (data: Record<string, Record<string, unknown>>): Action[] => {
    const actions: Action[] = [];
    for (const [type, entries] of Object.entries(data)) {
      for (const [id, value] of Object.entries(entries ?? {})) {
        const sk = `${type}#${id}`;
        actions.push(value === null || value === undefined ? { del: sk } : { put: { sk, value: encodeAuthValue(value) } });
      }
    }
    return actions;
  };

  const store: AuthStore & { stats: AuthStoreStats; idle(): Promise<void> } = {
    stats,
    /** resolves once every write queued so far is done (a drain hands the lease over only then) */
    idle: () => serially(async () => undefined),
    async get(type, ids) {
      const result: Record<string, unknown> = {};
      const missing: string[] = [];
      for (const id of ids) {
        const sk = `${type}#${id}`;
        if (cache.has(sk)) {
          stats.cacheHits++;
          const v = cache.get(sk);
          if (v !== null && v !== undefined) result[id] = v;
        } else missing.push(id);
      }
      const pk = pkOf();
      for (let i = 0; i < missing.length; i += 100) {
        let keys: Record<string, unknown>[] = missing.slice(i, i + 100).map((id) => ({ pk, sk: `${type}#${id}` }));
        const found = new Map<string, unknown>();
        // BatchGet may answer part of the keys; ask again for the rest.
        for (let attempt = 0; keys.length > 0 && attempt < 5; attempt++) {
          const out = await db.doc.send(new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: keys, ConsistentRead: true } } }));
          stats.reads += keys.length;
          for (const item of out.Responses?.[db.tableName] ?? []) found.set(item.sk as string, decodeAuthValue(item.v as string));
          keys = (out.UnprocessedKeys?.[db.tableName]?.Keys ?? []) as Record<string, unknown>[];
        }
        for (const id of missing.slice(i, i + 100)) {
          const sk = `${type}#${id}`;
          // a set() made while this read was in flight is newer than what the table answered
          if (!cache.has(sk)) cache.set(sk, found.get(sk) ?? null);
          const v = cache.get(sk);
          if (v !== null && v !== undefined) result[id] = v;
        }
      }
      return result;
    },
    async set(data) {
      // This host is the only writer (the lease): what it sets is the latest value, for its own reads too.
      for (const [type, entries] of Object.entries(data))
        for (const [id, value] of Object.entries(entries ?? {})) cache.set(`${type}#${id}`, value ?? null);
      // encoded when its turn comes, so a queued creds save writes the creds as they are then
      await serially(async () => {
        const actions = actionsOf(data);
        if (actions.length) await write(actions);
      });
    },
    async clear() {
      cache.clear();
      // after the writes queued before it, so nothing written earlier survives the clear
      await serially(async () => {
        const pk = pkOf();
        const sks: string[] = [];
        let start: Record<string, unknown> | undefined;
        do {
          const page = await db.doc.send(
            new QueryCommand({ TableName: db.tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk }, ProjectionExpression: "sk", ExclusiveStartKey: start }),
          );
          sks.push(...(page.Items ?? []).map((i) => i.sk as string));
          start = page.LastEvaluatedKey;
        } while (start);
        if (sks.length) await write(sks.map((sk) => ({ del: sk })));
      });
    },
  };
  return store;
};
export type TableAuthStore = ReturnType<typeof createTableAuthStore>;
