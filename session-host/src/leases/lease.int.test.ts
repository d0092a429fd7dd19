import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import "../testing/provided-context";
import { createHostRuntime, type HostRuntime } from "../app";
import { createTableAuthStore, LeaseLostError } from "../auth/table-auth.store";
import { createDb, type Db } from "../platform/db";
import { startSimulatedNetwork, type SimulatedNetwork } from "../testing/simulated-network";
import { createTestTable, freePort, sendCommands, startTestSqs, testHostConfig, waitFor } from "../testing/test-env";
import { createLeaseRepository } from "./lease.repository";

let db: Db;
let tableName: string;
const id = { companyId: 7, whatsappId: 3 };

beforeAll(async () => {
  tableName = await createTestTable(inject("dynamoEndpoint"));
  db = createDb({ tableName, endpoint: inject("dynamoEndpoint"), region: "us-east-1" });
});

describe("lease repository (DynamoDB Local)", () => {
  it("one holder at a time; another host takes over only after expiry, with a higher fence", async () => {
    const leases = createLeaseRepository(db);
    const t0 = 1_000_000;
    const a = await leases.acquire(id, "A", "simulator", t0, 30_000);
    expect(a).toMatchObject({ owner: "A", fence: 1 });
    expect(await leases.acquire(id, "B", "simulator", t0 + 10_000, 30_000)).toBeNull();
    expect(await leases.renew(a!, t0 + 20_000, 30_000)).toBe(true);
    // A's heartbeat moved the expiry to t0 + 50s
    expect(await leases.acquire(id, "B", "simulator", t0 + 45_000, 30_000)).toBeNull();
    expect((await leases.listOrphans(t0 + 45_000, "B")).map((l) => l.whatsappId)).toEqual([]);
    expect((await leases.listOrphans(t0 + 51_000, "B")).map((l) => l.whatsappId)).toEqual([id.whatsappId]);
    const b = await leases.acquire(id, "B", "simulator", t0 + 51_000, 30_000);
    expect(b).toMatchObject({ owner: "B", fence: 2 });
    // A comes back: its heartbeat is refused, so it must close the socket
    expect(await leases.renew(a!, t0 + 52_000, 30_000)).toBe(false);
    await leases.release(a!, true); // a stale release changes nothing
    expect(await leases.get(id)).toMatchObject({ owner: "B", fence: 2, wanted: true });
    await leases.release(b!, false);
    expect(await leases.get(id)).toMatchObject({ wanted: false, fence: 2 });
    expect((await leases.get(id))?.owner).toBeUndefined();
    expect(await leases.listOrphans(t0 + 999_000, "B")).toEqual([]);
  });
});

describe("auth store (DynamoDB Local)", () => {
  it("round-trips creds and signal keys with binary values, serves repeats from its cache, and clears", async () => {
    const leases = createLeaseRepository(db);
    const who = { companyId: 8, whatsappId: 1 };
    const held = (await leases.acquire(who, "A", "baileys", Date.now(), 30_000))!;
    const store = createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => undefined });
    const key = { private: Buffer.from([1, 2, 3]), public: new Uint8Array([4, 5, 6]) };
    await store.set({ "pre-key": { "1": key, "2": key }, "lid-mapping": { "5511999990000": "123456@lid" }, "device-list": { "5511999990000": ["0", "2"] }, tctoken: { x: { token: Buffer.from("t") } } });
    await store.set({ creds: { main: { me: { id: "5511@s.whatsapp.net" }, noiseKey: { private: Buffer.alloc(32, 9) } } } });
    // a fresh store (another process) reads from the table
    const fresh = createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => undefined });
    const got = await fresh.get("pre-key", ["1", "2", "3"]);
    expect(Object.keys(got).sort()).toEqual(["1", "2"]);
    expect(Buffer.isBuffer((got["1"] as { private: Buffer }).private)).toBe(true);
    expect([...(got["1"] as { public: Buffer }).public]).toEqual([4, 5, 6]);
    expect(await fresh.get("lid-mapping", ["5511999990000"])).toEqual({ "5511999990000": "123456@lid" });
    expect(await fresh.get("device-list", ["5511999990000"])).toEqual({ "5511999990000": ["0", "2"] });
    const creds = (await fresh.get("creds", ["main"])).main as { noiseKey: { private: Buffer } };
    expect(creds.noiseKey.private.equals(Buffer.alloc(32, 9))).toBe(true);
    const reads = fresh.stats.reads;
    await fresh.get("pre-key", ["1", "2", "3"]); // the found ones cached; a miss is never cached (issue 29)
    expect(fresh.stats.reads).toBe(reads + 1);
    await store.set({ "pre-key": { "1": null } });
    expect(Object.keys(await createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => undefined }).get("pre-key", ["1", "2"]))).toEqual(["2"]);
    await store.clear();
    expect(await fresh.get("lid-mapping", ["5511999990000"])).toEqual({ "5511999990000": "123456@lid" }); // its own cache
    expect(await createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => undefined }).get("lid-mapping", ["5511999990000"])).toEqual({});
  });

  it("refuses writes once the lease is gone, and says so", async () => {
    const leases = createLeaseRepository(db);
    const who = { companyId: 8, whatsappId: 2 };
    const t0 = Date.now();
    const a = (await leases.acquire(who, "A", "baileys", t0 - 60_000, 30_000))!; // already expired
    let lost = 0;
    const storeA = createTableAuthStore({ db, leases, held: () => a, onLeaseLost: () => lost++ });
    await storeA.set({ session: { s1: Buffer.from("a") } });
    const b = (await leases.acquire(who, "B", "baileys", t0, 30_000))!;
    await expect(storeA.set({ session: { s1: Buffer.from("stale") } })).rejects.toBeInstanceOf(LeaseLostError);
    expect(lost).toBe(1);
    const storeB = createTableAuthStore({ db, leases, held: () => b, onLeaseLost: () => undefined });
    expect(((await storeB.get("session", ["s1"])).s1 as Buffer).toString()).toBe("a");
  });
});

describe("hosts", () => {
  let sqs: Awaited<ReturnType<typeof startTestSqs>>;
  const hosts: HostRuntime[] = [];
  let network: SimulatedNetwork;
  const host = async (hostId: string, extra: Record<string, string> = {}) => {
    const rt = await createHostRuntime(
      testHostConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: inject("dynamoEndpoint"), SQS_ENDPOINT: sqs.endpoint, QUEUE_URL_INBOUND: sqs.queueUrls.inbound, QUEUE_URL_OUTBOUND: sqs.queueUrls.outbound, SESSION_HOST_ID: hostId, SIMULATOR_NETWORK_URL: network.wireUrl, ...extra }),
    );
    hosts.push(rt);
    return rt;
  };
  beforeAll(async () => {
    sqs = await startTestSqs(await freePort());
    network = await startSimulatedNetwork();
  });
  afterAll(async () => {
    for (const h of hosts) await h.host.kill();
    for (const h of hosts) h.sqs.destroy();
    await network?.close();
    await Promise.race([sqs.stop(), new Promise((r) => setTimeout(r, 2_000))]);
  });

  it("a host that loses its lease closes that socket at once; the new holder drives the connection", async () => {
    const conn = { companyId: 9, whatsappId: 1 };
    const a = await host("lost-a", { LEASE_TTL_MS: "60000", LEASE_HEARTBEAT_MS: "300" });
    await a.host.start();
    await sendCommands(a.sqs, sqs.queueUrls.outbound, [{ type: "session.start", commandId: "lost-1", ...conn, channel: "simulator" }]);
    await waitFor("session on A", () => a.host.sessions().some((s) => s.companyId === 9));
    // Someone else takes the lease (as if A had been partitioned away long enough).
    const leases = createLeaseRepository(db);
    expect(await leases.acquire(conn, "intruder", "simulator", Date.now() + 120_000, 60_000)).not.toBeNull();
    await waitFor("A closes it", () => !a.host.sessions().some((s) => s.companyId === 9), 5_000);
    await waitFor("the network sees A's socket closed", async () => (await network.connections()).find((c) => c.companyId === 9)?.status === "offline", 5_000);
    await a.host.kill();
  });

  it("another host takes over a dead host's connections within the lease time, without a new QR", async () => {
    const conn = { companyId: 10, whatsappId: 1 };
    const a = await host("dead-a");
    const b = await host("dead-b");
    await a.host.start();
    await sendCommands(a.sqs, sqs.queueUrls.outbound, [{ type: "session.start", commandId: "dead-1", ...conn, channel: "simulator" }]);
    await waitFor("QR", async () => (await network.connections()).some((c) => c.companyId === 10 && c.status === "qrcode"));
    await network.scan(conn, "5511955554444");
    expect(a.host.sessions().map((s) => s.companyId)).toContain(10);
    await b.host.start();
    await a.host.kill();
    const killedAt = Date.now();
    await waitFor("B takes over", () => b.host.sessions().some((s) => s.companyId === 10 && s.status === "CONNECTED"), 10_000);
    const took = Date.now() - killedAt;
    expect(took).toBeLessThan(60_000);
    const c = (await network.connections()).find((x) => x.companyId === 10);
    expect(c).toMatchObject({ status: "CONNECTED", number: "5511955554444" });
    expect(b.host.sessions().find((s) => s.companyId === 10)?.fence).toBe(2);
  });
});
