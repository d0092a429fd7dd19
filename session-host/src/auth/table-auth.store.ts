import { BatchGetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../platform/db";
import { isConditionFailure } from "../platform/db";
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

/**
 * The auth state of one connection (creds and every signal key type) in the table, never in local files.
 * A read-through cache sits in front (signal keys are read on every message). Every write carries the
 * condition that this host still holds the lease; losing it fails the write with LeaseLostError.
 */
export const createTableAuthStore = (deps: { db: Db; leases: LeaseRepository; held: () => HeldLease; onLeaseLost: () => void }) => {
  const { db, leases } = deps;
  const stats: AuthStoreStats = { reads: 0, writes: 0, cacheHits: 0 };
  const cache = new Map<string, unknown>();
  const pkOf = () => authPk(deps.held().identity);

  const write = async (actions: ({ put: { sk: string; value: string } } | { del: string })[]) => {
    for (let i = 0; i < actions.length; i += TRANSACT_MAX) {
      const chunk = actions.slice(i, i + TRANSACT_MAX);
      const pk = pkOf();
      try {
        await db.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { ConditionCheck: leases.holdsCondition(deps.held()) },
              ...chunk.map((a) =>
                "put" in a
                  ? { Put: { TableName: db.tableName, Item: { pk, sk: a.put.sk, v: a.put.value } } }
                  : { Delete: { TableName: db.tableName, Key: { pk, sk: a.del } } },
              ),
            ],
          }),
        );
        stats.writes += chunk.length;
      } catch (err) {
        if (isConditionFailure(err)) {
          deps.onLeaseLost();
          throw new LeaseLostError();
        }
        throw err;
      }
    }
  };

  const store: AuthStore & { stats: AuthStoreStats } = {
    stats,
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
          const v = found.get(sk) ?? null;
          cache.set(sk, v);
          if (v !== null) result[id] = v;
        }
      }
      return result;
    },
    async set(data) {
      const actions: ({ put: { sk: string; value: string } } | { del: string })[] = [];
      for (const [type, entries] of Object.entries(data)) {
        for (const [id, value] of Object.entries(entries ?? {})) {
          const sk = `${type}#${id}`;
          actions.push(value === null || value === undefined ? { del: sk } : { put: { sk, value: encodeAuthValue(value) } });
        }
      }
      if (actions.length === 0) return;
      await write(actions);
      for (const [type, entries] of Object.entries(data))
        for (const [id, value] of Object.entries(entries ?? {})) cache.set(`${type}#${id}`, value ?? null);
    },
    async clear() {
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
      cache.clear();
      if (sks.length) await write(sks.map((sk) => ({ del: sk })));
    },
  };
  return store;
};
export type TableAuthStore = ReturnType<typeof createTableAuthStore>;
