import { BatchGetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../platform/db";
import { cancellationCodes, isConditionFailure, retryConflicts } from "../platform/db";
import type { HeldLease, LeaseRepository } from "../leases/lease.repository";
import type { AuthStore, SessionIdentity } from "../providers/provider.port";
import { sharedAuthCache, type AuthCache } from "./auth-cache";
import { decodeAuthValue, encodeAuthValue } from "./auth-codec";
import { packValue, partKeysOf, partSk, unpackValue, type PackedItem } from "./large-values";

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

type Action = { put: PackedItem } | { del: string };
/** a transaction's items stay under DynamoDB's 4 MB per transaction */
const TRANSACT_MAX_BYTES = 3_500_000;
/** BatchGet rounds for keys DynamoDB left unprocessed (throttling), with backoff, before the read fails */
const BATCH_GET_ATTEMPTS = 5;

export class UnprocessedKeysError extends Error {
  constructor(readonly count: number) {
    super(`${count} auth keys still unprocessed after ${BATCH_GET_ATTEMPTS} BatchGet attempts`);
    this.name = "UnprocessedKeysError";
  }
}

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
let stores = 0;

export const createTableAuthStore = (deps: {
  db: Db;
  leases: LeaseRepository;
  held: () => HeldLease;
  onLeaseLost: () => void;
  /** the host's LRU of auth values (shared by its connections; bounded in bytes) */
  cache?: AuthCache;
  /** tests: the wait before BatchGet round `n` (1-based) */
  backoffMs?: (attempt: number) => number;
}) => {
  const { db, leases } = deps;
  const stats: AuthStoreStats & { conflictRetries: number } = { reads: 0, writes: 0, cacheHits: 0, conflictRetries: 0 };
  const lru = deps.cache ?? sharedAuthCache();
  const pkOf = () => authPk(deps.held().identity);
  // each store its own entries (a store is one holding of one connection: a new holder never reads an old one's
  // values); a store dropped leaves its entries to be evicted like any other
  const self = ++stores;
  const ck = (sk: string) => `${self}|${pkOf()}|${sk}`;
  // this connection's view of the shared LRU (a null or missing value is never cached: a miss is asked again)
  const cache = {
    get: (sk: string): unknown => lru.get(ck(sk))?.v,
    set: (sk: string, v: unknown) => (v === null || v === undefined ? lru.delete(ck(sk)) : lru.set(ck(sk), { v })),
    clear() {
      const prefix = ck("");
      for (const k of [...lru.keys()]) if (k.startsWith(prefix)) lru.delete(k);
    },
  };
  /** keys written while a read was in flight: what that read brings back for them is older (reads in flight > 0) */
  let readsInFlight = 0;
  const touched = new Set<string>();
  /** how many items a split value spans (this host is the only writer: it knows what it wrote and read) */
  const partsOf = new Map<string, number>();
  const backoff = deps.backoffMs ?? ((n: number) => Math.min(1_000, 50 * 2 ** n) * (1 + Math.random() * 0.2));
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
            ...chunk.map((a) => ("put" in a ? { Put: { TableName: db.tableName, Item: { pk, ...a.put } } } : { Delete: { TableName: db.tableName, Key: { pk, sk: a.del } } })),
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

  const sizeOf = (a: Action) => ("put" in a ? (a.put.v ?? a.put.z ?? "").length + 200 : 200);
  /** in transactions of at most 99 items and 3.5 MB */
  const write = async (actions: Action[]) => {
    let chunk: Action[] = [];
    let bytes = 0;
    for (const a of actions) {
      if (chunk.length && (chunk.length >= TRANSACT_MAX || bytes + sizeOf(a) > TRANSACT_MAX_BYTES)) {
        await writeChunk(chunk);
        chunk = [];
        bytes = 0;
      }
      chunk.push(a);
      bytes += sizeOf(a);
    }
    if (chunk.length) await writeChunk(chunk);
  };
  /** a value's items (split when over DynamoDB's item limit), and the deletes of parts it no longer spans */
  const actionsOf = (data: Record<string, Record<string, unknown>>): Action[] => {
    const actions: Action[] = [];
    for (const [type, entries] of Object.entries(data)) {
      for (const [id, value] of Object.entries(entries ?? {})) {
        const sk = `${type}#${id}`;
        const before = partsOf.get(sk) ?? 1;
        const items = value === null || value === undefined ? [] : packValue(sk, encodeAuthValue(value));
        if (items.length === 0) actions.push({ del: sk });
        for (const item of items) actions.push({ put: item });
        for (let n = Math.max(1, items.length); n < before; n++) actions.push({ del: partSk(sk, n) });
        if (items.length > 1) partsOf.set(sk, items.length);
        else partsOf.delete(sk);
      }
    }
    return actions;
  };
  /** BatchGet with the unprocessed keys asked again, with backoff; still unprocessed after 5 rounds: throws */
  const batchGet = async (sks: string[]): Promise<Map<string, PackedItem>> => {
    const pk = pkOf();
    const found = new Map<string, PackedItem>();
    for (let i = 0; i < sks.length; i += 100) {
      let keys: Record<string, unknown>[] = sks.slice(i, i + 100).map((sk) => ({ pk, sk }));
      for (let attempt = 0; keys.length > 0; attempt++) {
        if (attempt >= BATCH_GET_ATTEMPTS) throw new UnprocessedKeysError(keys.length);
        if (attempt > 0) await new Promise((r) => setTimeout(r, backoff(attempt)));
        const out = await db.doc.send(new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: keys, ConsistentRead: true } } }));
        stats.reads += keys.length;
        for (const item of out.Responses?.[db.tableName] ?? []) found.set(item.sk as string, item as PackedItem);
        keys = (out.UnprocessedKeys?.[db.tableName]?.Keys ?? []) as Record<string, unknown>[];
      }
    }
    return found;
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
        const v = cache.get(sk);
        if (v !== undefined) {
          stats.cacheHits++;
          result[id] = v;
        } else missing.push(id);
      }
      if (missing.length === 0) return result;
      readsInFlight++;
      try {
        const items = await batchGet(missing.map((id) => `${type}#${id}`));
        const split = [...items.values()].filter((it) => (it.parts ?? 1) > 1);
        const parts = split.length ? await batchGet(split.flatMap(partKeysOf)) : new Map<string, PackedItem>();
        for (const id of missing) {
          const sk = `${type}#${id}`;
          const item = items.get(sk);
          // a set() made while this read was in flight is newer than what the table answered
          if (touched.has(sk)) {
            const v = cache.get(sk);
            if (v !== null && v !== undefined) result[id] = v;
            continue;
          }
          if (!item) continue; // a miss: not cached
          if ((item.parts ?? 1) > 1) partsOf.set(sk, item.parts!);
          const v = decodeAuthValue(unpackValue(item, partKeysOf(item).map((p) => parts.get(p)?.z)));
          cache.set(sk, v);
          if (v !== null && v !== undefined) result[id] = v;
        }
      } finally {
        if (--readsInFlight === 0) touched.clear();
      }
      return result;
    },
    async set(data) {
      // This host is the only writer (the lease): what it sets is the latest value, for its own reads too.
      for (const [type, entries] of Object.entries(data))
        for (const [id, value] of Object.entries(entries ?? {})) {
          cache.set(`${type}#${id}`, value ?? null);
          if (readsInFlight > 0) touched.add(`${type}#${id}`);
        }
      // encoded when its turn comes, so a queued creds save writes the creds as they are then
      await serially(async () => {
        const actions = actionsOf(data);
        if (actions.length) await write(actions);
      });
    },
    async clear() {
      cache.clear();
      partsOf.clear();
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
