import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import "../testing/provided-context";
import { createLeaseRepository } from "../leases/lease.repository";
import { createDb, type Db } from "../platform/db";
import { createTestTable } from "../testing/test-env";
import { createAuthCache } from "./auth-cache";
import { encodeAuthValue } from "./auth-codec";
import { createTableAuthStore, UnprocessedKeysError } from "./table-auth.store";

let db: Db;
beforeAll(async () => {
  const tableName = await createTestTable(inject("dynamoEndpoint"));
  db = createDb({ tableName, endpoint: inject("dynamoEndpoint"), region: "us-east-1" });
});
afterAll(() => db?.doc.destroy());

const storeFor = async (whatsappId: number, over: Partial<Parameters<typeof createTableAuthStore>[0]> = {}) => {
  const leases = createLeaseRepository(db);
  const held = (await leases.acquire({ companyId: 61, whatsappId }, "host-a", "baileys", Date.now(), 60_000))!;
  return createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => undefined, ...over });
};
const pk = (whatsappId: number) => `CO#61#WAAUTH#${whatsappId}`;
const item = async (whatsappId: number, sk: string) => (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: { pk: pk(whatsappId), sk } }))).Item;

/** an LT-hash state as Baileys keeps it: one 32-byte hash... per mutation ever synced (incompressible bytes) */
const appStateVersion = (mutations: number) => ({
  version: mutations,
  hash: Buffer.alloc(128, 7),
  indexValueMap: Object.fromEntries(Array.from({ length: mutations }, (_, i) => [`idx${i}`.padEnd(44, "="), { valueMac: Buffer.from(crypto.getRandomValues(new Uint8Array(32))) }])),
});

describe("table auth store: values over DynamoDB's 400 KB item limit (DynamoDB Local)", () => {
  it("an app-state-sync-version of ~1.5 MB is split, read back exact by a new holder, shrunk and deleted without leftovers", async () => {
    const store = await storeFor(1);
    const big = appStateVersion(14_000);
    expect(encodeAuthValue(big).length).toBeGreaterThan(1_000_000);
    await store.set({ "app-state-sync-version": { regular: big } });
    const first = await item(1, "app-state-sync-version#regular");
    expect(first?.parts).toBeGreaterThan(1);
    expect(await item(1, "app-state-sync-version#regular#part#1")).toBeDefined();

    const reader = await storeFor(1); // another holding: nothing cached
    const back = (await reader.get("app-state-sync-version", ["regular"])).regular as typeof big;
    expect(back.version).toBe(14_000);
    expect(Object.keys(back.indexValueMap)).toHaveLength(14_000);
    expect(Buffer.compare(back.indexValueMap[Object.keys(big.indexValueMap)[9_999]!]!.valueMac, big.indexValueMap[Object.keys(big.indexValueMap)[9_999]!]!.valueMac)).toBe(0);

    // a smaller version replaces it: one plain item, the old parts gone
    await reader.set({ "app-state-sync-version": { regular: appStateVersion(10) } });
    expect((await item(1, "app-state-sync-version#regular"))?.v).toBeDefined();
    expect(await item(1, "app-state-sync-version#regular#part#1")).toBeUndefined();
    await reader.set({ "app-state-sync-version": { regular: big } });
    await reader.set({ "app-state-sync-version": { regular: null } });
    expect(await item(1, "app-state-sync-version#regular")).toBeUndefined();
    expect(await item(1, "app-state-sync-version#regular#part#1")).toBeUndefined();
  });

  it("a value that compresses under the limit is one gzipped item", async () => {
    const store = await storeFor(2);
    const repetitive = { text: "a".repeat(600_000) };
    await store.set({ "app-state-sync-version": { critical_block: repetitive } });
    const it0 = await item(2, "app-state-sync-version#critical_block");
    expect(it0?.z).toBeDefined();
    expect(it0?.v).toBeUndefined();
    expect((await (await storeFor(2)).get("app-state-sync-version", ["critical_block"])).critical_block).toEqual(repetitive);
  });
});

describe("table auth store: the read cache", () => {
  it("never caches a miss: a key written after a miss is found on the next read", async () => {
    const store = await storeFor(3);
    expect(await store.get("session", ["x.0"])).toEqual({});
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { pk: pk(3), sk: "session#x.0", v: encodeAuthValue({ s: "late" }) } }));
    expect(await store.get("session", ["x.0"])).toEqual({ "x.0": { s: "late" } });
    const reads = store.stats.reads;
    expect(await store.get("session", ["x.0"])).toEqual({ "x.0": { s: "late" } }); // found values are cached
    expect(store.stats.reads).toBe(reads);
  });

  it("is an LRU bounded in bytes: past its size the oldest values are read from the table again", async () => {
    const cache = createAuthCache({ maxBytes: 50_000 });
    const store = await storeFor(4, { cache });
    const keys = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, { key: Buffer.alloc(1_000, i) }]));
    await store.set({ "pre-key": keys });
    expect(cache.calculatedSize).toBeLessThanOrEqual(50_000);
    const reads = store.stats.reads;
    const back = await store.get("pre-key", Object.keys(keys));
    expect(Object.keys(back)).toHaveLength(100);
    expect(store.stats.reads - reads).toBeGreaterThan(50); // the evicted ones came from the table
  });

  it("BatchGet keys left unprocessed after 5 attempts with backoff throw, never read as missing", async () => {
    const waits: number[] = [];
    const throttled = {
      ...db,
      doc: {
        send: async (cmd: { constructor: { name: string }; input: { RequestItems?: Record<string, { Keys: unknown[] }> } }) => {
          if (cmd.constructor.name !== "BatchGetCommand") return db.doc.send(cmd as never);
          const keys = cmd.input.RequestItems![db.tableName]!.Keys;
          return { Responses: { [db.tableName]: [] }, UnprocessedKeys: { [db.tableName]: { Keys: keys } } };
        },
      },
    } as unknown as Db;
    const leases = createLeaseRepository(db);
    const held = (await leases.acquire({ companyId: 61, whatsappId: 5 }, "host-a", "baileys", Date.now(), 60_000))!;
    const store = createTableAuthStore({ db: throttled, leases, held: () => held, onLeaseLost: () => undefined, backoffMs: (n) => (waits.push(n), 1) });
    await expect(store.get("session", ["a", "b"])).rejects.toBeInstanceOf(UnprocessedKeysError);
    expect(waits).toEqual([1, 2, 3, 4]);
  });
});
