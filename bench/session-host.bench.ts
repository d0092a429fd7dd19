import { randomUUID } from "node:crypto";
import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { createHostRuntime, type HostRuntime } from "@atende/session-host/app";
import { createTableAuthStore } from "@atende/session-host/auth/table-auth.store";
import { createLeaseRepository } from "@atende/session-host/leases/lease.repository";
import { createDb } from "@atende/session-host/platform/db";
import { baileysKeys } from "@atende/session-host/providers/baileys/baileys-auth";
import { createSimulatorNetwork } from "../infra/local/src/stand-ins/whatsapp/network";
import { memoryPairingStore } from "../infra/local/src/stand-ins/whatsapp/network-types";
import { startWireServer } from "../infra/local/src/stand-ins/whatsapp/wire-server";
import { freePort, sendCommands, startTestSqs, testHostConfig, waitFor } from "@atende/session-host/testing/test-env";
import { ensureTable, startDynamo } from "../infra/local/src/dynamo";
import type { makeLibSignalRepository as MakeRepositoryFn } from "baileys/lib/Signal/libsignal.js";

type MakeRepository = typeof MakeRepositoryFn;

/**
 * Session host benchmark (issue 5 "Numbers"):
 * 1. memory per connected simulator session (heap + external, one host, BENCH_SH_SESSIONS sessions);
 * 2. time for a second host to take over a dead host's connections, with the production lease settings
 *    (30 s lease, 10 s heartbeat, 10 s scan);
 * 3. outbound messages per second one host sustains (simulator provider, local SQS emulator, one receiver);
 * 4. Baileys key-store reads and writes (table round trips, with the caches in front) per message sent and
 *    received, measured on a real Signal session between two auth states (libsignal through Baileys).
 */
const SESSIONS = Number(process.env.BENCH_SH_SESSIONS ?? 200);
const TAKEOVER_SESSIONS = Number(process.env.BENCH_SH_TAKEOVER ?? 50);
const OUTBOUND = Number(process.env.BENCH_SH_OUTBOUND ?? 2000);
const SIGNAL_MESSAGES = Number(process.env.BENCH_SH_SIGNAL ?? 50);

const heap = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

export default async function bench(): Promise<Record<string, unknown>> {
  const dynamo = await startDynamo({ port: await freePort() });
  const sqs = await startTestSqs(await freePort());
  const tableName = "bench_sh";
  await ensureTable(dynamo.endpoint, tableName);
  // config.ts's defaults (docs/adr/0070); one host holds every session here, so its capacity is not the limit
  const PRODUCTION_TIMING = { LEASE_TTL_MS: "30000", LEASE_HEARTBEAT_MS: "10000", LEASE_SCAN_MS: "2000", SESSION_HOST_HEARTBEAT_MS: "2000", SESSION_HOST_STALE_MS: "8000", SESSION_HOST_CAPACITY: String(SESSIONS + TAKEOVER_SESSIONS + 10) };
  const env = { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: dynamo.endpoint, SQS_ENDPOINT: sqs.endpoint, QUEUE_URL_INBOUND: sqs.queueUrls.inbound, QUEUE_URL_OUTBOUND: sqs.queueUrls.outbound };
  const runtimes: HostRuntime[] = [];
  const figures: Record<string, unknown> = {};
  try {
    // Paired in advance: sessions connect at once, like a restart of linked devices.
    const pairing = memoryPairingStore();
    for (let i = 1; i <= SESSIONS + TAKEOVER_SESSIONS + 10; i++) await pairing.save(1000 + i, 1, `55119${String(10_000_000 + i)}`);
    const network = createSimulatorNetwork({ pairing, ackDelayMs: 50 });
    await network.init();
    const wire = await startWireServer(network);
    const hostEnv = { ...env, SIMULATOR_NETWORK_URL: wire.url };

    // 1. memory per session
    const a = await createHostRuntime(testHostConfig({ ...hostEnv, SESSION_HOST_ID: "bench-a", ...PRODUCTION_TIMING }));
    runtimes.push(a);
    await a.host.start();
    const before = heap();
    const starts: OutboundCommand[] = Array.from({ length: SESSIONS }, (_, i) => ({ type: "session.start", commandId: randomUUID(), companyId: 1001 + i, whatsappId: 1, channel: "simulator" }));
    await sendCommands(a.sqs, sqs.queueUrls.outbound, starts);
    await waitFor("sessions", () => a.host.sessions().filter((s) => s.status === "CONNECTED").length >= SESSIONS, 300_000);
    await new Promise((r) => setTimeout(r, 2000));
    const after = heap();
    figures.sessions = SESSIONS;
    figures.memoryPerSessionKiB = Math.round((after - before) / SESSIONS / 1024);
    figures.memoryNote = "simulator sessions: host side plus the simulated network (in this process, dialled over a loopback WebSocket); a Baileys socket adds its own buffers and caches";

    // 3. outbound throughput, one host (10 connections, one group each)
    const conns = Array.from({ length: 10 }, (_, i) => 1001 + i);
    const customers = conns.map((_, i) => `55219${String(20_000_000 + i)}`);
    for (const c of customers) network.upsertCustomer(c, undefined, false);
    const sends: OutboundCommand[] = Array.from({ length: OUTBOUND }, (_, i) => ({
      type: "send",
      commandId: randomUUID(),
      messageId: `BENCH${i}`,
      companyId: conns[i % conns.length] as number,
      whatsappId: 1,
      chatJid: `${customers[i % customers.length]}@s.whatsapp.net`,
      body: `mensagem ${i}`,
    }));
    const delivered = () => conns.reduce((sum, co, i) => sum + network.chat(customers[i] as string, { companyId: co, whatsappId: 1 }).messages.length, 0);
    const t0 = Date.now();
    await sendCommands(a.sqs, sqs.queueUrls.outbound, sends);
    const enqueuedMs = Date.now() - t0;
    await waitFor("outbound", () => delivered() >= OUTBOUND, 600_000);
    const seconds = (Date.now() - t0) / 1000;
    figures.outbound = { messages: OUTBOUND, seconds: Math.round(seconds * 10) / 10, messagesPerSecond: Math.round(OUTBOUND / seconds), enqueueMs: enqueuedMs };

    // 2. takeover after a host dies (production lease timings)
    const tb = await createHostRuntime(testHostConfig({ ...hostEnv, SESSION_HOST_ID: "bench-b", ...PRODUCTION_TIMING }));
    runtimes.push(tb);
    await tb.host.start();
    const held = a.host.sessions().length;
    await a.host.kill();
    const killedAt = Date.now();
    await waitFor("takeover", () => tb.host.sessions().filter((s) => s.status === "CONNECTED").length >= held, 120_000);
    figures.takeover = { connections: held, seconds: Math.round((Date.now() - killedAt) / 100) / 10, leaseTtlSeconds: 30, scanSeconds: 2, registryStaleSeconds: 8 };

    // 4. key store traffic per Signal message (Baileys' libsignal repository over our table store)
    const b = await import("baileys");
    const { makeLibSignalRepository } = (await import("baileys/lib/Signal/libsignal.js" as string)) as { makeLibSignalRepository: MakeRepository };
    const db = createDb({ tableName, endpoint: dynamo.endpoint, region: "us-east-1" });
    const leases = createLeaseRepository(db);
    const pino = (await import("pino")).default({ level: "silent" });
    const party = async (companyId: number) => {
      const held = (await leases.acquire({ companyId, whatsappId: 1 }, "bench", "baileys", Date.now(), 3_600_000))!;
      const store = createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => undefined });
      const keys = b.addTransactionCapability(b.makeCacheableSignalKeyStore(baileysKeys(b, store), pino), pino, { maxCommitRetries: 3, delayBetweenTriesMs: 50 });
      const creds = b.initAuthCreds();
      const repo = makeLibSignalRepository({ creds, keys }, pino);
      return { store, keys, creds, repo };
    };
    const alice = await party(9001);
    const bob = await party(9002);
    const aliceJid = "5511900000001@s.whatsapp.net";
    const bobJid = "5511900000002@s.whatsapp.net";
    const { preKeys, update } = await b.getNextPreKeys({ creds: bob.creds, keys: bob.keys }, 5);
    Object.assign(bob.creds, update);
    const [firstId, firstKey] = Object.entries(preKeys)[0]!;
    await alice.repo.injectE2ESession({
      jid: bobJid,
      session: {
        registrationId: bob.creds.registrationId,
        identityKey: b.generateSignalPubKey(bob.creds.signedIdentityKey.public),
        signedPreKey: { keyId: bob.creds.signedPreKey.keyId, publicKey: b.generateSignalPubKey(bob.creds.signedPreKey.keyPair.public), signature: bob.creds.signedPreKey.signature },
        preKey: { keyId: Number(firstId), publicKey: b.generateSignalPubKey(firstKey.public) },
      },
    });
    const snapshot = () => ({ reads: alice.store.stats.reads + bob.store.stats.reads, writes: alice.store.stats.writes + bob.store.stats.writes });
    const start = snapshot();
    const data = Buffer.from("olá");
    let ok = 0;
    for (let i = 0; i < SIGNAL_MESSAGES; i++) {
      const [from, to, toJid, fromJid] = i % 2 === 0 ? [alice, bob, bobJid, aliceJid] : [bob, alice, aliceJid, bobJid];
      const enc = await from.repo.encryptMessage({ jid: toJid, data });
      const dec = await to.repo.decryptMessage({ jid: fromJid, type: enc.type, ciphertext: enc.ciphertext });
      if (Buffer.from(dec).toString() === "olá") ok++;
    }
    const end = snapshot();
    figures.keyStore = {
      messages: SIGNAL_MESSAGES,
      decryptedOk: ok,
      tableReadsPerMessage: Math.round(((end.reads - start.reads) / SIGNAL_MESSAGES) * 100) / 100,
      tableWritesPerMessage: Math.round(((end.writes - start.writes) / SIGNAL_MESSAGES) * 100) / 100,
      note: "per message = one encrypt on the sender plus one decrypt on the receiver, both stores together; reads are table round trips after Baileys' cache and ours",
    };
  } finally {
    for (const r of runtimes) await r.host.kill().catch(() => undefined);
    for (const r of runtimes) r.sqs.destroy();
    await Promise.race([sqs.stop(), new Promise((r) => setTimeout(r, 2000))]);
    await dynamo.stop();
  }
  return figures;
}
