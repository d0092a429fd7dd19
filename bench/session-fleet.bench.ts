import { DeleteMessageBatchCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { inboundEventSchema, type OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { SESSION_HOST_REGISTRY_PK } from "@atende/shared/contracts/http/session-hosts";
import { LEASE_PK } from "@atende/session-host/leases/lease.repository";
import { createDb } from "@atende/session-host/platform/db";
import { createSqsClient } from "@atende/session-host/queues/sqs";
import { freePort, sendCommands, startTestSqs } from "@atende/session-host/testing/test-env";
import { ensureTable, startDynamo } from "../infra/local/src/dynamo";
import { startHostFleet } from "../infra/local/src/host-fleet";
import { REPO_ROOT } from "../infra/local/src/platform";
import { createSimulatorNetwork } from "../infra/local/src/stand-ins/whatsapp/network";
import { memoryPairingStore } from "../infra/local/src/stand-ins/whatsapp/network-types";
import { startWireServer } from "../infra/local/src/stand-ins/whatsapp/wire-server";
import { percentile } from "./stats";

/**
 * `npm run bench -- session-fleet` (issue 29 "Measured"): BENCH_FLEET_SESSIONS (300) simulator sessions over
 * BENCH_FLEET_HOSTS (3) session-host processes, as the local runner starts them (infra/local/src/host-fleet.ts),
 * sharing the connections through the leases with the host's default lease settings; the simulated WhatsApp
 * network outside them (in this process, dialled over a loopback WebSocket); customers writing
 * BENCH_FLEET_RATE (20) messages/s in all, the whole time.
 * 1. memory: each host's RSS and heap (+ external) against the sessions it holds, at 0, 1/3, 2/3 and all
 *    sessions: per-session cost (least-squares slope) and a host's baseline;
 * 2. one host killed (SIGKILL): for each of its connections, seconds until it is CONNECTED on another host;
 * 3. a rolling restart (SIGTERM, drain, start again, one host after the other): seconds each connection was down;
 * 4. every customer message read from inbound.fifo as the consumer Lambda does: lost and duplicated (must be 0).
 */
const SESSIONS = Number(process.env.BENCH_FLEET_SESSIONS ?? 300);
const HOSTS = Number(process.env.BENCH_FLEET_HOSTS ?? 3);
const RATE = Number(process.env.BENCH_FLEET_RATE ?? 20);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
};
const rssOf = (pid: number | undefined) => {
  const m = pid ? /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8")) : null;
  return m ? Number(m[1]) * 1024 : 0;
};
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const stats = (xs: number[]) => (xs.length ? { count: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: round(Math.max(...xs)) } : { count: 0 });
/** least squares y = a + b x */
const fit = (points: { x: number; y: number }[]) => {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const b = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / Math.max(1e-9, points.reduce((s, p) => s + (p.x - mx) ** 2, 0));
  return { intercept: my - b * mx, slope: b };
};

export default async function bench(): Promise<Record<string, unknown>> {
  const dynamo = await startDynamo({ port: await freePort() });
  const sqs = await startTestSqs(await freePort());
  const tableName = "bench_fleet";
  await ensureTable(dynamo.endpoint, tableName);
  const db = createDb({ tableName, endpoint: dynamo.endpoint, region: "us-east-1" });
  const conns = Array.from({ length: SESSIONS }, (_, i) => ({ companyId: 5000 + i, whatsappId: i + 1 }));
  const key = (c: { companyId: number; whatsappId: number }) => `${c.companyId}:${c.whatsappId}`;
  // linked in advance: sessions connect without a QR, like linked devices after a deploy
  const pairing = memoryPairingStore();
  for (const [i, c] of conns.entries()) await pairing.save(c.companyId, c.whatsappId, `55119${String(50_000_000 + i)}`);
  const network = createSimulatorNetwork({ pairing, ackDelayMs: 500 });
  await network.init();
  const wire = await startWireServer(network);
  const fleet = startHostFleet({
    count: HOSTS,
    repoRoot: REPO_ROOT,
    autoRestart: false,
    stdio: "inherit",
    log: (msg, fields) => console.log(`  ${msg} ${JSON.stringify(fields)}`),
    env: {
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SQS_ENDPOINT: sqs.endpoint,
      QUEUE_URL_INBOUND: sqs.queueUrls.inbound,
      QUEUE_URL_OUTBOUND: sqs.queueUrls.outbound,
      MEDIA_DIR: mkdtempSync(join(tmpdir(), "fleet-media-")),
      DEFAULT_CHANNEL: "simulator",
      SIMULATOR_NETWORK_URL: wire.url,
      COMMAND_WAIT_SECONDS: "1",
      // room for every session on the hosts left after a kill (the bench measures takeover, not WAITING_CAPACITY)
      SESSION_HOST_CAPACITY: String(Math.ceil(SESSIONS / Math.max(1, HOSTS - 1)) + 10),
      LOG_LEVEL: process.env.BENCH_FLEET_LOG_LEVEL ?? "error",
    },
  });
  const client = createSqsClient("us-east-1", sqs.endpoint);
  const figures: Record<string, unknown> = { sessions: SESSIONS, hosts: HOSTS, customerMessagesPerSecond: RATE };

  // --- every connection's state, sampled every 100 ms: when it went down and came back
  const down = new Map<string, number>();
  const outages: { key: string; from: number; to: number }[] = [];
  const sampler = setInterval(() => {
    const now = Date.now();
    for (const c of network.connections()) {
      const k = key(c);
      if (c.status !== "CONNECTED" && !down.has(k)) down.set(k, now);
      if (c.status === "CONNECTED" && down.has(k)) {
        outages.push({ key: k, from: down.get(k)!, to: now });
        down.delete(k);
      }
    }
  }, 100);
  const connectedCount = () => network.connections().filter((c) => c.status === "CONNECTED").length;

  // --- inbound.fifo read as the consumer Lambda does: every customer message, by id
  const received = new Map<string, number>();
  let reading = true;
  const reader = (async () => {
    while (reading) {
      const out = await client.send(new ReceiveMessageCommand({ QueueUrl: sqs.queueUrls.inbound, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 })).catch(() => ({ Messages: [] }));
      const msgs = out.Messages ?? [];
      for (const m of msgs) {
        const e = inboundEventSchema.parse(JSON.parse(m.Body ?? ""));
        if (e.type === "message") received.set(e.message.id, (received.get(e.message.id) ?? 0) + 1);
      }
      if (msgs.length) await client.send(new DeleteMessageBatchCommand({ QueueUrl: sqs.queueUrls.inbound, Entries: msgs.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) })).catch(() => undefined);
    }
  })();

  const heldBy = async () => {
    const out = await db.doc.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": LEASE_PK } }));
    const now = Date.now();
    const per = new Map<string, number>();
    for (const l of out.Items ?? []) if (l.owner && (l.expiresAt as number) > now) per.set(l.owner as string, (per.get(l.owner as string) ?? 0) + 1);
    return per;
  };
  /** a (re)started host has joined the fleet: its registry item was written after `since` (as ECS waits for a new task's health) */
  const inRegistry = async (hostId: string, since: number) => {
    const out = await db.doc.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": SESSION_HOST_REGISTRY_PK }, ConsistentRead: true }));
    return (out.Items ?? []).some((i) => i.hostId === hostId && (i.lastHeartbeatAt as number) > since);
  };
  const sampleMemory = async () => {
    const held = await heldBy();
    const out: { hostId: string; sessions: number; rss: number; heap: number }[] = [];
    for (const [i, h] of fleet.hosts().entries()) {
      const m = await fleet.memory(i + 1);
      out.push({ hostId: h.hostId, sessions: held.get(h.hostId) ?? 0, rss: rssOf(h.pid), heap: m.heapUsed + m.external });
    }
    return out;
  };

  let sending = false;
  const sent: string[] = [];
  let producer: Promise<void> | undefined;
  try {
    // hosts up and answering
    for (let n = 1; n <= HOSTS; n++) await until(`host-${n} up`, () => fleet.memory(n).then(() => true, () => false), 60_000);
    await sleep(3_000);

    // 1. memory against sessions held
    const points: Awaited<ReturnType<typeof sampleMemory>> = [...(await sampleMemory())];
    const steps = 3;
    for (let s = 1; s <= steps; s++) {
      const from = Math.round(((s - 1) * SESSIONS) / steps);
      const to = Math.round((s * SESSIONS) / steps);
      const starts: OutboundCommand[] = conns.slice(from, to).map((c) => ({ type: "session.start", commandId: `start-${key(c)}`, ...c, channel: "simulator" }));
      await sendCommands(client, sqs.queueUrls.outbound, starts);
      await until(`${to} sessions connected`, () => connectedCount() >= to, 300_000);
      await sleep(3_000);
      points.push(...(await sampleMemory()));
    }
    const rssFit = fit(points.map((p) => ({ x: p.sessions, y: p.rss })));
    const heapFit = fit(points.map((p) => ({ x: p.sessions, y: p.heap })));
    figures.memory = {
      rssPerSessionKiB: round(rssFit.slope / 1024),
      heapPerSessionKiB: round(heapFit.slope / 1024),
      hostBaselineRssMiB: round(rssFit.intercept / 2 ** 20),
      hostBaselineHeapMiB: round(heapFit.intercept / 2 ** 20),
      samples: points.map((p) => ({ hostId: p.hostId, sessions: p.sessions, rssMiB: round(p.rss / 2 ** 20), heapMiB: round(p.heap / 2 ** 20) })),
      note: "simulator sessions, host side only (the network runs outside the hosts); a Baileys socket adds its own buffers, caches and Signal state",
    };
    figures.spread = Object.fromEntries(await heldBy());

    // customers write the whole time from here on
    sending = true;
    producer = (async () => {
      let i = 0;
      const t0 = Date.now();
      while (sending) {
        const c = conns[i % conns.length]!;
        const n = `55219${String(60_000_000 + (i % conns.length))}`;
        const r = await network.customerSend(n, c, { type: "text", body: `m-${i}` }).catch(() => null);
        if (r) sent.push(r.id);
        i++;
        const due = t0 + (i * 1000) / RATE;
        if (due > Date.now()) await sleep(due - Date.now());
      }
    })();
    await sleep(5_000);

    // 2. kill -9 one host: its connections, back on the others
    const victimHeld = (await heldBy()).get("host-1") ?? 0;
    const victimPid = fleet.hosts()[0]!.pid;
    const killedAt = Date.now();
    fleet.signal(1, "SIGKILL");
    await fleet.exited(1);
    await sleep(500);
    await until("every connection back after the kill", () => connectedCount() >= SESSIONS && down.size === 0, 180_000).catch(async (err: unknown) => {
      // what is missing, for the one who reads the failure: the connections still down and their leases
      const leases = await db.doc.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": LEASE_PK } }));
      const missing = new Set(network.connections().filter((c) => c.status !== "CONNECTED").map(key));
      console.error("still down:", JSON.stringify((leases.Items ?? []).filter((l) => missing.has(`${l.companyId}:${l.whatsappId}`)), null, 1));
      throw err;
    });
    const takeovers = outages.filter((o) => o.to >= killedAt).map((o) => (o.to - killedAt) / 1000);
    figures.kill = { hostId: "host-1", pid: victimPid, connections: victimHeld, takeoverSeconds: stats(takeovers), spreadAfter: Object.fromEntries(await heldBy()) };
    const restartedAt = Date.now();
    fleet.start(1);
    await until("host-1 up again", () => fleet.memory(1).then(() => true, () => false), 60_000);
    await until("host-1 in the registry again", () => inRegistry("host-1", restartedAt), 60_000);
    await sleep(5_000);

    // 3. rolling restart: SIGTERM (drain), start again, next host
    const rollingFrom = Date.now();
    const perHost: { hostId: string; drainSeconds: number }[] = [];
    for (let n = 1; n <= HOSTS; n++) {
      const t = Date.now();
      fleet.signal(n, "SIGTERM");
      await fleet.exited(n);
      perHost.push({ hostId: `host-${n}`, drainSeconds: round((Date.now() - t) / 1000) });
      const restartedAt = Date.now();
      fleet.start(n);
      await until(`host-${n} up again`, () => fleet.memory(n).then(() => true, () => false), 60_000);
      // the next host drains only once this one takes connections again (a deploy waits for the new task's health)
      await until(`host-${n} in the registry again`, () => inRegistry(`host-${n}`, restartedAt), 60_000);
      await until("every connection back", () => connectedCount() >= SESSIONS && down.size === 0, 180_000);
      await sleep(2_000);
    }
    const downPerConnection = new Map<string, number>();
    for (const o of outages.filter((x) => x.from >= rollingFrom)) downPerConnection.set(o.key, (downPerConnection.get(o.key) ?? 0) + (o.to - o.from) / 1000);
    figures.rollingRestart = {
      seconds: round((Date.now() - rollingFrom) / 1000),
      hosts: perHost,
      connectionsDown: downPerConnection.size,
      secondsDownPerConnection: stats([...downPerConnection.values()]),
      secondsDownAllConnections: stats(conns.map((c) => downPerConnection.get(key(c)) ?? 0)),
    };

    // 4. nothing lost, nothing twice
    sending = false;
    await producer;
    await until("every customer message on inbound.fifo", () => sent.every((id) => received.has(id)), 120_000).catch(() => undefined);
    await sleep(3_000);
    const lost = sent.filter((id) => !received.has(id)).length;
    const duplicated = [...received.values()].reduce((s, n) => s + (n - 1), 0);
    figures.messages = { sent: sent.length, received: received.size, lost, duplicated };
    figures.leaseSettings = "session host defaults (LEASE_TTL_MS, LEASE_HEARTBEAT_MS, LEASE_SCAN_MS of session-host/src/config.ts)";
  } finally {
    sending = false;
    await producer?.catch(() => undefined);
    clearInterval(sampler);
    reading = false;
    await reader.catch(() => undefined);
    await fleet.stop();
    network.close();
    await wire.close();
    client.destroy();
    await Promise.race([sqs.stop(), sleep(2_000)]);
    await dynamo.stop();
  }
  return figures;
}
