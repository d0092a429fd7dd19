import WebSocket from "ws";
import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { startPlatform } from "../infra/local/src/platform";
import { httpJson } from "../e2e/support/http";
import { connectSimulator } from "../e2e/support/simulator";
import { percentile } from "./stats";

/**
 * Assignment latency (issue 13 numbers, docs/adr/0032): from a pending ticket to an owner, under
 * BENCH_DIST_RATE new customers per second (default 20) for BENCH_DIST_SECONDS (default 10). The demo company gets
 * a queue "Bench" on least busy, a connection with only that queue (customers land in it at once) and
 * BENCH_DIST_AGENTS attendants (default 5) online with capacity 100. On the admin's socket we time each ticket's
 * first `ticket` update as pending in the queue without owner to its first update as open with an owner: the
 * trigger (ticket-change listener → jobs queue) and the run (read, rank, one conditional transaction), plus the
 * event fan-out. The minute tick is off: only the event path is measured.
 */
const RATE = Number(process.env.BENCH_DIST_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_DIST_SECONDS ?? 10);
const AGENTS = Number(process.env.BENCH_DIST_AGENTS ?? 5);

export default async function bench(): Promise<Record<string, unknown>> {
  const platform = await startPlatform({ logLevel: "warn", tick: false });
  try {
    const base = platform.url;
    const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
    let session = await connectSimulator(base, admin);
    const http = <T>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(base, path, { token: session.token, ...init });
    const q = await http<{ id: number }>("/api/queue", { method: "POST", body: { name: "Bench", color: "#123456", orderQueue: 9, greetingMessage: "Bem-vindo ao bench." } });
    if (q.status >= 300) throw new Error(`queue: ${q.status} ${JSON.stringify(q.data)}`);
    const conn = await http<{ id: number }>("/api/whatsapp", { method: "POST", body: { name: "Bench", greetingMessage: "Olá!", queueIds: [q.data.id] } });
    if (conn.status >= 300) throw new Error(`connection: ${conn.status} ${JSON.stringify(conn.data)}`);
    session = await connectSimulator(base, admin, "Bench");
    const { companyId, whatsappId } = session;
    const tag = Date.now().toString(36);
    for (let i = 0; i < AGENTS; i++) {
      const who = { email: `bench-${tag}-${i}@demo.com.br`, password: "Bench12345" };
      const made = await http<{ id: number }>("/api/users", { method: "POST", body: { name: `Bench ${i}`, ...who, profile: "user", queueIds: [q.data.id], allTicket: "desabled" } });
      if (made.status >= 300) throw new Error(`user: ${made.status} ${JSON.stringify(made.data)}`);
      await http(`/api/agents/${made.data.id}`, { method: "PUT", body: { capacity: 100 } });
      const login = await httpJson<{ token: string }>(base, "/api/auth/login", { method: "POST", body: who });
      await httpJson(base, "/api/agents/me/status", { method: "PUT", token: login.data.token, body: { status: "online" } });
    }
    await http(`/api/distribution/queues/${q.data.id}`, { method: "PUT", body: { mode: "leastBusy", ownAttendant: false, ownAttendantMinutes: 0 } });

    const pendingAt = new Map<number, number>();
    const latency: number[] = [];
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(session.token)}`);
    await new Promise<void>((res, rej) => {
      ws.once("open", () => res());
      ws.once("error", rej);
    });
    ws.on("message", (raw) => {
      const frame = JSON.parse(String(raw)) as { event: string; data: { action?: string; ticket?: { id: number; status: string; userId: number | null; queueId: number | null } } };
      const t = frame.data.ticket;
      if (frame.event !== "ticket" || frame.data.action !== "update" || !t || t.queueId !== q.data.id) return;
      const now = performance.now();
      if (t.status === "pending" && t.userId === null && !pendingAt.has(t.id)) pendingAt.set(t.id, now);
      else if (t.status === "open" && t.userId !== null && pendingAt.has(t.id) && pendingAt.get(t.id)! > 0) {
        latency.push(now - pendingAt.get(t.id)!);
        pendingAt.set(t.id, -1);
      }
    });

    const total = RATE * SECONDS;
    const started = performance.now();
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sends.push(
        httpJson(base, `/simulator/api/customers/55119${String(52000000 + i)}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body: `oi ${tag}`, name: `Dist bench ${i}` } }),
      );
    }
    await Promise.all(sends);
    const sendSeconds = (performance.now() - started) / 1000;
    const deadline = Date.now() + 120_000;
    while (latency.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    ws.close();
    const panel = (await http<{ userId: number; openTickets: number; capacity: number }[]>("/api/agents")).data.filter((a) => a.capacity === 100);
    return {
      rate: RATE,
      seconds: SECONDS,
      agents: AGENTS,
      tickets: total,
      seenPending: [...pendingAt.keys()].length,
      assigned: latency.length,
      sendSeconds: Math.round(sendSeconds * 10) / 10,
      perAgent: panel.map((a) => a.openTickets),
      pendingToOwnerMsP50: percentile(latency, 50),
      pendingToOwnerMsP99: percentile(latency, 99),
      pendingToOwnerMsMax: percentile(latency, 100),
    };
  } finally {
    await platform.stop();
  }
}
