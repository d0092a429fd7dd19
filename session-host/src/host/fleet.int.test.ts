import { DeleteMessageBatchCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { WebSocket } from "ws";
import { WIRE_CLOSE_REPLACED } from "@atende/shared/contracts/simulator-wire";
import "../testing/provided-context";
import { inboundEventSchema, type InboundEvent } from "@atende/shared/contracts/queue-messages";
import { createHostRuntime, type HostRuntime } from "../app";
import { decodeAuthValue } from "../auth/auth-codec";
import { LeaseLostError, type TableAuthStore } from "../auth/table-auth.store";
import { createHostRegistry } from "../leases/host-registry";
import { createLeaseRepository, type LeaseRepository } from "../leases/lease.repository";
import { createDb, type Db } from "../platform/db";
import type { ProviderEvents, SessionIdentity } from "../providers/provider.port";
import { createEventSpill } from "./event-spill";
import { createSimulatorProvider } from "../providers/simulator/simulator.provider";
import { startSimulatedNetwork, type SimulatedNetwork } from "../testing/simulated-network";
import { createTestTable, freePort, startTestSqs, testHostConfig, waitFor } from "../testing/test-env";

/**
 * The fleet (docs/adr/0070), with in-process hosts against DynamoDB Local: least-loaded claims and WAITING_CAPACITY,
 * takeover of a killed host before its leases expire, drain hand-over, and fencing of a host that stalls for longer
 * than the stale time. Each test uses its own table, so hosts of one test never see another's.
 */
let sqs: Awaited<ReturnType<typeof startTestSqs>>;
const hosts: HostRuntime[] = [];
/** the simulated WhatsApp network, out of process as in the local platform (infra/local/src/stand-ins/whatsapp) */
let network: SimulatedNetwork;
/** the auth store each host's session of a connection got (to write as that host would) */
const authOf = new Map<string, TableAuthStore>();
const eventsOf = new Map<string, ProviderEvents>();

const newTable = async () => {
  const tableName = await createTestTable(inject("dynamoEndpoint"));
  const db = createDb({ tableName, endpoint: inject("dynamoEndpoint"), region: "us-east-1" });
  return { tableName, db, leases: createLeaseRepository(db) };
};
const host = async (tableName: string, hostId: string, extra: Record<string, string> = {}, wrapDb?: (db: Db) => Db) => {
  const rt = await createHostRuntime(
    testHostConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: inject("dynamoEndpoint"), SQS_ENDPOINT: sqs.endpoint, QUEUE_URL_INBOUND: sqs.queueUrls.inbound, QUEUE_URL_OUTBOUND: sqs.queueUrls.outbound, SESSION_HOST_ID: hostId, ...extra }),
    {
      wrapDb,
      providers: {
        simulator: () => {
          const p = createSimulatorProvider({ url: network.wireUrl });
          return {
            ...p,
            createSession: (ctx) => {
              authOf.set(`${hostId}:${ctx.identity.companyId}:${ctx.identity.whatsappId}`, ctx.auth as TableAuthStore);
              eventsOf.set(`${hostId}:${ctx.identity.companyId}:${ctx.identity.whatsappId}`, ctx.events);
              return p.createSession(ctx);
            },
          };
        },
      },
    },
  );
  hosts.push(rt);
  return rt;
};
const held = (rt: HostRuntime, status?: string) => rt.host.sessions().filter((s) => !status || s.status === status);
const holds = (rt: HostRuntime, id: SessionIdentity, status = "CONNECTED") => rt.host.sessions().some((s) => s.companyId === id.companyId && s.whatsappId === id.whatsappId && s.status === status);
/** connections wanted and paired on the simulated network (a QR scanned once), held by `rt` */
const pairAll = async (rt: HostRuntime, leases: LeaseRepository, ids: SessionIdentity[], number0: number) => {
  for (const id of ids) await leases.want(id, "simulator");
  for (const [i, id] of ids.entries()) {
    await waitFor(`QR ${id.companyId}/${id.whatsappId}`, async () => (await network.connections()).some((c) => c.companyId === id.companyId && c.whatsappId === id.whatsappId && c.status === "qrcode"));
    await network.scan(id, String(number0 + i));
  }
  await waitFor("all connected", () => ids.every((id) => holds(rt, id)));
};
const inbound = async (): Promise<InboundEvent[]> => {
  const out: InboundEvent[] = [];
  for (;;) {
    const r = await hosts[0]!.sqs.send(new ReceiveMessageCommand({ QueueUrl: sqs.queueUrls.inbound, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!r.Messages?.length) return out;
    out.push(...r.Messages.map((m) => inboundEventSchema.parse(JSON.parse(m.Body!))));
    await hosts[0]!.sqs.send(new DeleteMessageBatchCommand({ QueueUrl: sqs.queueUrls.inbound, Entries: r.Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
  }
};

beforeAll(async () => {
  sqs = await startTestSqs(await freePort());
  network = await startSimulatedNetwork();
});
afterAll(async () => {
  for (const h of hosts) await h.host.kill();
  for (const h of hosts) h.sqs.destroy();
  await network.close();
  await Promise.race([sqs.stop(), new Promise((r) => setTimeout(r, 2_000))]);
});

describe("claims", () => {
  it("the least-loaded host with room takes new connections; with every host full they wait (WAITING_CAPACITY) until one has room", { timeout: 60_000 }, async () => {
    const { tableName, leases, db } = await newTable();
    const ids = Array.from({ length: 7 }, (_, i) => ({ companyId: 100, whatsappId: i + 1 }));
    const a = await host(tableName, "claims-a", { SESSION_HOST_CAPACITY: "3" });
    await a.host.start();
    await leases.want(ids[0]!, "simulator");
    await leases.want(ids[1]!, "simulator");
    await waitFor("A takes the first two", () => held(a).length === 2);
    const b = await host(tableName, "claims-b", { SESSION_HOST_CAPACITY: "3" });
    await b.host.start();
    await inbound();
    // A holds 2, B 0: both new ones go to B
    await leases.want(ids[2]!, "simulator");
    await leases.want(ids[3]!, "simulator");
    await waitFor("B takes both", () => held(b).length === 2);
    expect(held(a)).toHaveLength(2);
    // room for 2 (one on each), 3 more wanted: the last (by key) waits, once
    for (const id of ids.slice(4)) await leases.want(id, "simulator");
    await waitFor("both full", () => held(a).length === 3 && held(b).length === 3).catch((err) => {
      console.info(JSON.stringify({ a: held(a), b: held(b) }));
      throw err;
    });
    const isHeld = (id: SessionIdentity) => [a, b].some((h) => held(h).some((s) => s.whatsappId === id.whatsappId));
    const left = ids.slice(4).find((id) => !isHeld(id))!;
    await waitFor("marked waiting", async () => (await leases.get(left))?.waitingSince !== undefined);
    await new Promise((r) => setTimeout(r, 1_500)); // more scans of both hosts
    const waitingEvents = (await inbound()).filter((e) => e.type === "connection" && e.status === "WAITING_CAPACITY").map((e) => e.whatsappId);
    expect(waitingEvents).toContain(left.whatsappId);
    expect(new Set(waitingEvents).size).toBe(waitingEvents.length); // once per connection
    // the registry says what each host holds
    const registry = await createHostRegistry(db).list();
    expect(registry.map((r) => [r.hostId, r.capacity, r.draining, r.connections.length]).sort()).toEqual([
      ["claims-a", 3, false, 3],
      ["claims-b", 3, false, 3],
    ]);
    expect(registry[0]!.pid).toBe(process.pid);
    // a third host comes: it takes the waiting connection
    const c = await host(tableName, "claims-c", { SESSION_HOST_CAPACITY: "3" });
    await c.host.start();
    await waitFor("C takes the waiting one", () => held(c).some((s) => s.whatsappId === left.whatsappId));
    expect((await leases.get(left))?.waitingSince).toBeUndefined();
    for (const h of [a, b, c]) await h.host.kill();
  });
});

describe("takeover and drain", () => {
  it("kill -9: another host has the connections CONNECTED within 15 s, with the production lease TTL (30 s)", { timeout: 90_000 }, async () => {
    const { tableName, leases } = await newTable();
    // production timing (config.ts defaults), not the tests' short leases
    const prod = { LEASE_TTL_MS: "30000", LEASE_HEARTBEAT_MS: "10000", FLEET_WATCH_MS: "1000", LEASE_SCAN_MS: "4000", SESSION_HOST_HEARTBEAT_MS: "2000", SESSION_HOST_STALE_MS: "8000" };
    const a = await host(tableName, "kill-a", prod);
    await a.host.start();
    const ids = Array.from({ length: 5 }, (_, i) => ({ companyId: 110, whatsappId: i + 1 }));
    await pairAll(a, leases, ids, 5511970000001);
    const b = await host(tableName, "kill-b", prod);
    await b.host.start();
    await a.host.kill();
    const killedAt = Date.now();
    const took = new Map<number, number>();
    await waitFor(
      "B has them all",
      () => {
        for (const id of ids) if (!took.has(id.whatsappId) && holds(b, id)) took.set(id.whatsappId, Date.now() - killedAt);
        return took.size === ids.length;
      },
      20_000,
    );
    const max = Math.max(...took.values());
    console.info(`takeover after kill: max ${max} ms (${[...took.values()].join(", ")})`);
    expect(max).toBeLessThan(15_000);
    expect((await network.connections()).filter((c) => c.companyId === 110).every((c) => c.status === "CONNECTED")).toBe(true);
    await b.host.kill();
  });

  it("SIGTERM drains: leases handed over with the marker, taken by another host within 5 s, the host leaves the registry", { timeout: 60_000 }, async () => {
    const { tableName, leases, db } = await newTable();
    const released = new Map<number, number>();
    /** records when each hand-over release reached the table (its marker in the request) */
    const recordReleases = (inner: Db): Db => {
      const send = inner.doc.send.bind(inner.doc) as (cmd: unknown) => Promise<unknown>;
      const doc = Object.create(inner.doc) as Db["doc"];
      doc.send = (async (cmd: { input: { UpdateExpression?: string; Key?: { sk?: string } } }) => {
        const out = await send(cmd);
        if (cmd.input.UpdateExpression?.includes("#hoBy = :me")) released.set(Number(cmd.input.Key!.sk!.split("#")[1]), Date.now());
        return out;
      }) as never;
      return { ...inner, doc };
    };
    // production timing, long polls included: the drain waits up to 10 s for them while its heartbeats go on, so
    // nobody takes its connections as a dead host's (every lease is released by A, with the marker)
    const timing = { LEASE_TTL_MS: "30000", LEASE_HEARTBEAT_MS: "10000", FLEET_WATCH_MS: "1000", LEASE_SCAN_MS: "4000", SESSION_HOST_HEARTBEAT_MS: "2000", SESSION_HOST_STALE_MS: "8000", COMMAND_WAIT_SECONDS: "10" };
    const a = await host(tableName, "drain-a", timing, recordReleases);
    await a.host.start();
    const ids = Array.from({ length: 5 }, (_, i) => ({ companyId: 120, whatsappId: i + 1 }));
    await pairAll(a, leases, ids, 5511971000001);
    const b = await host(tableName, "drain-b", timing);
    await b.host.start();
    const took = new Map<number, number>();
    const watch = setInterval(() => {
      for (const s of held(b, "CONNECTED")) if (!took.has(s.whatsappId)) took.set(s.whatsappId, Date.now());
    }, 20);
    const t0 = Date.now();
    await a.host.stop();
    const drainMs = Date.now() - t0;
    expect(held(a)).toHaveLength(0);
    expect((await createHostRegistry(db).list()).map((r) => r.hostId)).toEqual(["drain-b"]);
    await waitFor("B has them all", () => took.size === ids.length, 10_000);
    clearInterval(watch);
    const pickups = ids.map((id) => took.get(id.whatsappId)! - released.get(id.whatsappId)!);
    console.info(`drain ${drainMs} ms; hand-over to pickup: max ${Math.max(...pickups)} ms (${pickups.join(", ")})`);
    expect(released.size).toBe(ids.length);
    expect(drainMs).toBeLessThan(30_000);
    expect(Math.max(...pickups)).toBeLessThan(5_000);
    // the marker was removed by the new holder's acquisition; fence grew
    for (const id of ids) expect(await leases.get(id)).toMatchObject({ owner: "drain-b", fence: 2 });
    expect((await leases.get(ids[0]!))?.handedOverBy).toBeUndefined();
    await b.host.kill();
  });
});

describe("fencing", () => {
  it("a host stalled longer than the stale time never acts beside the new holder, and closes its socket without a logout when it wakes", { timeout: 60_000 }, async () => {
    const { tableName, leases, db } = await newTable();
    let gate: Promise<void> | undefined;
    let open: () => void = () => undefined;
    const stall = () => (gate = new Promise<void>((r) => (open = r)));
    const wake = () => {
      gate = undefined;
      open();
    };
    /** A's table client: while stalled, its requests wait (as for a process paused by the kernel or a long GC) */
    const pausable = (inner: Db): Db => {
      const send = inner.doc.send.bind(inner.doc) as (cmd: unknown) => Promise<unknown>;
      const doc = Object.create(inner.doc) as Db["doc"];
      doc.send = (async (cmd: unknown) => {
        while (gate) await gate;
        return send(cmd);
      }) as never;
      return { ...inner, doc };
    };
    const acquiredAt: number[] = [];
    const recordAcquire = (inner: Db): Db => {
      const send = inner.doc.send.bind(inner.doc) as (cmd: unknown) => Promise<unknown>;
      const doc = Object.create(inner.doc) as Db["doc"];
      doc.send = (async (cmd: { input: { UpdateExpression?: string; ExpressionAttributeValues?: Record<string, unknown> } }) => {
        const out = await send(cmd);
        if (cmd.input.UpdateExpression?.includes("if_not_exists(#fence, :zero) + :one")) acquiredAt.push(cmd.input.ExpressionAttributeValues![":now"] as number);
        return out;
      }) as never;
      return { ...inner, doc };
    };
    const timing = { LEASE_TTL_MS: "20000", LEASE_HEARTBEAT_MS: "500" };
    const a = await host(tableName, "fence-a", timing, pausable);
    await a.host.start();
    const id = { companyId: 130, whatsappId: 1 };
    await pairAll(a, leases, [id], 5511972000001);
    const authA = authOf.get(`fence-a:130:1`)!;
    await authA.set({ session: { s1: Buffer.from("from A") } });
    const b = await host(tableName, "fence-b", timing, recordAcquire);
    await b.host.start();
    await inbound();

    stall();
    const aValidUntil = a.host.fleet.validUntil();
    await waitFor("B takes over from the stalled A", () => holds(b, id), 15_000);
    // B acquired only after A's own validity had ended (A's lease would still run for ~20 s)
    expect(acquiredAt.length).toBe(1);
    expect(acquiredAt[0]!).toBeGreaterThanOrEqual(aValidUntil);
    expect(b.host.sessions()[0]!.fence).toBe(2);
    const authB = authOf.get(`fence-b:130:1`)!;
    await authB.set({ session: { s1: Buffer.from("from B") } });
    // an event A's socket still delivers: A is past its validity, so it does not publish it; it is kept for the holder
    const late = eventsOf.get("fence-a:130:1")!.presence({ chatJid: "5511900000009@s.whatsapp.net", presence: "composing" });
    await new Promise((r) => setTimeout(r, 500));
    expect((await inbound()).filter((e) => e.type === "presence")).toEqual([]);

    wake();
    await waitFor("A closes its socket", () => !holds(a, id, "CONNECTED") && held(a).length === 0, 5_000);
    // no logout: the device stays paired and connected through B, the auth state is B's
    expect((await network.connections()).find((c) => c.companyId === 130)).toMatchObject({ status: "CONNECTED", number: "5511972000001" });
    await expect(authA.set({ session: { s1: Buffer.from("stale A") } })).rejects.toBeInstanceOf(LeaseLostError);
    await late;
    expect((await createEventSpill(db, id).oldest()).map((e) => e.event.type)).toEqual(["presence"]);
    // read from the table, not from a store's cache: B's key is there, A's stale write is not, nothing was cleared
    const stored0 = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: { pk: "CO#130#WAAUTH#1", sk: "session#s1" } }));
    expect(decodeAuthValue(stored0.Item!.v as string) as Buffer).toEqual(Buffer.from("from B"));
    const stored = await createLeaseRepository(db).get(id);
    expect(stored).toMatchObject({ owner: "fence-b", fence: 2 });
    expect(holds(b, id)).toBe(true);
    for (const h of [a, b]) await h.host.kill();
  });

  it("a holder whose socket was replaced by a client that dialled late (a host that lost the lease) dials again", { timeout: 60_000 }, async () => {
    const { tableName, leases } = await newTable();
    const a = await host(tableName, "replaced-a");
    await a.host.start();
    const id = { companyId: 140, whatsappId: 1 };
    await pairAll(a, leases, [id], 5511973000001);
    const fence = (await leases.get(id))?.fence;
    // the late client attaches the same connection: the network replaces A's socket (WhatsApp's "connection replaced")
    const late = new WebSocket(network.wireUrl);
    const closed = new Promise<number>((resolve) => late.on("close", (code) => resolve(code)));
    await new Promise((resolve) => late.on("open", resolve));
    late.send(JSON.stringify({ t: "attach", ...id }));
    // A still holds the lease: it dials again, and the network replaces the late client in turn
    const code = await Promise.race([closed, new Promise((r) => setTimeout(() => r("A did not dial again"), 10_000))]);
    expect(code).toBe(WIRE_CLOSE_REPLACED);
    await waitFor("A connected again", async () => (await network.connections()).some((c) => c.companyId === 140 && c.status === "CONNECTED"));
    expect(await leases.get(id)).toMatchObject({ owner: "replaced-a", fence });
    await a.host.kill();
  });
});
