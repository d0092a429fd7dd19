import { BatchWriteCommand, UpdateCommand, type UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import type { CycleSla, SlaClockRecord } from "@atende/shared/contracts/http/tickets";
import type { SupervisorOverview } from "@atende/shared/contracts/http/supervisor";
import { boardItems, type BoardTicket } from "@atende/functions/features/supervisor/supervisor-board";
import { hashPassword } from "@atende/functions/features/auth/password";
import { createTenant } from "@atende/functions/testing/factories";
import type { TestApp } from "@atende/functions/testing/test-app";
import { companyPk, pad } from "@atende/functions/platform/db/keys";
import { startPlatform } from "../infra/local/src/platform";
import { dynamoCounter } from "./inbox-meters";
import { percentile } from "./stats";

/**
 * The supervisors' cockpit (issue 34 item 6, docs/adr/0101): `GET /api/supervisor/overview` for a company with
 * BENCH_SUP_AGENTS attendants (default 50), BENCH_SUP_QUEUES queues (20) and BENCH_SUP_TICKETS live tickets (2,000:
 * 30 % waiting in the queues, 70 % open with the attendants; a fifth with an SLA clock past its warning, a tenth past
 * due). The board is written by the same `boardItems` updates the ticket writes put in their transactions, one ticket
 * at a time (a measure of the board's write path too); the agents' items carry status and open counts as presence
 * keeps them. Measured over HTTP on the local platform (DynamoDB Local): DynamoDB calls, round trips in sequence,
 * items read, the operations used (no Scan), and the latency of BENCH_SUP_CALLS (300) sequential calls after 20 to warm.
 */
const AGENTS = Number(process.env.BENCH_SUP_AGENTS ?? 50);
const QUEUES = Number(process.env.BENCH_SUP_QUEUES ?? 20);
const TICKETS = Number(process.env.BENCH_SUP_TICKETS ?? 2000);
const CALLS = Number(process.env.BENCH_SUP_CALLS ?? 300);
const CONCURRENCY = 16;

const clock = (startedAt: string, minutes: number, now: number, state: "ok" | "warned" | "breached"): SlaClockRecord => ({
  targetMinutes: minutes,
  startedAt,
  dueAt: new Date(Date.parse(startedAt) + minutes * 60_000).toISOString(),
  warnAt: new Date(Date.parse(startedAt) + minutes * 48_000).toISOString(),
  metAt: null,
  warnedAt: state === "ok" ? null : new Date(now - 60_000).toISOString(),
  breachedAt: state === "breached" ? new Date(now - 30_000).toISOString() : null,
});

export default async function supervisorBench(): Promise<Record<string, unknown>> {
  const platform = await startPlatform({ logLevel: "error", tick: false, env: { BCRYPT_ROUNDS: "4" } });
  try {
    const { container } = platform;
    const { db } = container;
    const call = async (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) => {
      const res = await fetch(`${platform.url}/api${path}`, { method, headers: { "content-type": "application/json", ...opts.headers }, body: JSON.stringify(opts.body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
    };
    const queues = Array.from({ length: QUEUES }, (_, i) => ({ name: `Fila ${String(i + 1).padStart(2, "0")}`, color: `#${(0x100000 + i * 4099).toString(16).slice(-6)}` }));
    const tenant = await createTenant({ container, clock: { now: new Date(), advance() {}, set() {} }, call } as unknown as TestApp, { queues });
    const cid = tenant.company.id;
    const queueIds = tenant.queues.map((q) => q.id);
    const now = Date.now();

    // attendants: the tenant's one plus the rest, each with a presence item (status, since, open count, capacity)
    const passwordHash = await hashPassword("Bench12345", 4);
    const agentIds = [tenant.user.id];
    for (let i = agentIds.length; i < AGENTS; i++) {
      const u = await container.repos.users.create(
        cid,
        { name: `Atendente ${String(i + 1).padStart(2, "0")}`, email: `sup-bench-${i}-${cid}@teste.com`, passwordHash, profile: "user", super: false, whatsappId: tenant.whatsapp.id, allTicket: "desabled", queueIds: [queueIds[i % QUEUES]!] },
        new Date(),
      );
      agentIds.push(u.id);
    }

    // the live tickets as the board sees them; the board's updates applied one ticket at a time
    const tickets: BoardTicket[] = Array.from({ length: TICKETS }, (_, i) => {
      const waiting = i % 10 < 3;
      const queuedAt = new Date(now - (5 + (i % 240)) * 60_000).toISOString();
      const state = i % 10 === 9 ? "breached" : i % 5 === 4 ? "warned" : "ok";
      const sla: CycleSla = { firstResponse: clock(queuedAt, 30, now, state), nextResponse: null, resolution: clock(queuedAt, 480, now, "ok") };
      return { id: 100_000 + i, companyId: cid, status: waiting ? "pending" : "open", queueId: queueIds[i % QUEUES]!, userId: waiting ? null : agentIds[i % AGENTS]!, cycle: { queuedAt, sla } };
    });
    const seedStarted = performance.now();
    const updates = tickets.flatMap((t) => boardItems(db.tableName, null, t).map((item) => item.Update!));
    for (let i = 0; i < updates.length; i += CONCURRENCY)
      await Promise.all(updates.slice(i, i + CONCURRENCY).map((u) => db.doc.send(new UpdateCommand(u as UpdateCommandInput))));
    const boardSeedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    const openBy = new Map<number, number>();
    for (const t of tickets) if (t.status === "open" && t.userId !== null) openBy.set(t.userId, (openBy.get(t.userId) ?? 0) + 1);
    const presence = agentIds.map((userId, i) => ({
      PutRequest: {
        Item: { pk: companyPk(cid), sk: `AGENT#${pad(userId)}`, entity: "agent", userId, status: i % 7 === 0 ? "paused" : "online", pauseReasonId: null, since: new Date(now - i * 60_000).toISOString(), capacity: i % 5 === 0 ? 25 : null, open: openBy.get(userId) ?? 0, seq: 1 },
      },
    }));
    for (let i = 0; i < presence.length; i += 25) await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: presence.slice(i, i + 25) } }));

    const auth = { headers: { authorization: `Bearer ${tenant.adminToken}` } };
    const overview = async () => {
      const res = await call("GET", "/supervisor/overview", auth);
      if (res.status !== 200) throw new Error(`overview: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as unknown as SupervisorOverview;
    };
    const first = await overview();
    const ops: string[] = [];
    container.db.doc.observe(({ operation }) => void ops.push(operation));
    const counter = dynamoCounter(platform);
    const reads = await counter.measure(async () => JSON.stringify(await overview()).length);
    const operations = [...new Set(ops)].sort();
    for (let i = 0; i < 20; i++) await overview();
    const ms: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await overview();
      ms.push(performance.now() - started);
    }
    const waiting = first.queues.reduce((n, q) => n + q.waiting, 0);
    const open = first.queues.reduce((n, q) => n + q.openTickets, 0);
    if (waiting + open !== TICKETS) throw new Error(`the board counts ${waiting} waiting + ${open} open, not ${TICKETS}`);
    return {
      agents: AGENTS,
      queues: QUEUES,
      liveTickets: TICKETS,
      answer: {
        waiting,
        open,
        slaAtRisk: first.queues.reduce((n, q) => n + q.slaAtRisk, 0),
        slaBreached: first.queues.reduce((n, q) => n + q.slaBreached, 0),
        agentsOverCapacity: first.agents.filter((a) => a.openTickets > a.capacity).length,
      },
      dynamo: { ...reads, operations, scans: operations.filter((o) => o === "Scan").length },
      latencyMs: { calls: CALLS, p50: percentile(ms, 50), p99: percentile(ms, 99), max: percentile(ms, 100) },
      boardSeed: { updates: updates.length, seconds: boardSeedSeconds },
    };
  } finally {
    await platform.stop();
  }
}
