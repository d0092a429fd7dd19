import WebSocket from "ws";
import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { startPlatform } from "../infra/local/src/platform";
import { createTestSubscription, decryptPushBody, type TestPushSubscription } from "../infra/local/src/stand-ins/push/push-keys";
import { httpJson } from "../e2e/support/http";
import { connectSimulator } from "../e2e/support/simulator";
import { percentile } from "./stats";

/**
 * Web Push latency (issue 32, docs/adr/0097): from the event (a ticket starts waiting) to the push request leaving for
 * the push service, on the local platform. The demo company gets a queue "Push" with a connection that has only that
 * queue (customers wait there at once) and BENCH_PUSH_AGENTS attendants (default 3) online, each with one device whose
 * endpoint is the platform's push-service stand-in (/simulator/push). BENCH_PUSH_RATE new customers per second
 * (default 10) for BENCH_PUSH_SECONDS (default 10). The event's moment is the admin socket's first `ticket` update of
 * the ticket as pending in the queue (the realtime frame the same unit of work sends); the push's is the stand-in's
 * receipt (same process clock), matched by the decrypted payload's tag. Target: p99 ≤ 1 s.
 */
const RATE = Number(process.env.BENCH_PUSH_RATE ?? 10);
const SECONDS = Number(process.env.BENCH_PUSH_SECONDS ?? 10);
const AGENTS = Number(process.env.BENCH_PUSH_AGENTS ?? 3);

export default async function bench(): Promise<Record<string, unknown>> {
  const platform = await startPlatform({ logLevel: "warn", tick: false });
  try {
    const base = platform.url;
    const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
    let session = await connectSimulator(base, admin);
    const http = <T>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(base, path, { token: session.token, ...init });
    const q = await http<{ id: number }>("/api/queue", { method: "POST", body: { name: "Push", color: "#654321", orderQueue: 9, greetingMessage: "Bem-vindo." } });
    if (q.status >= 300) throw new Error(`queue: ${q.status} ${JSON.stringify(q.data)}`);
    const conn = await http<{ id: number }>("/api/whatsapp", { method: "POST", body: { name: "Push", greetingMessage: "Olá!", queueIds: [q.data.id] } });
    if (conn.status >= 300) throw new Error(`connection: ${conn.status} ${JSON.stringify(conn.data)}`);
    session = await connectSimulator(base, admin, "Push");
    const { companyId, whatsappId } = session;
    const tag = Date.now().toString(36);
    const devices: TestPushSubscription[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const who = { email: `push-${tag}-${i}@demo.com.br`, password: "Bench12345" };
      const made = await http<{ id: number }>("/api/users", { method: "POST", body: { name: `Push ${i}`, ...who, profile: "user", queueIds: [q.data.id], allTicket: "desabled" } });
      if (made.status >= 300) throw new Error(`user: ${made.status} ${JSON.stringify(made.data)}`);
      const login = await httpJson<{ token: string }>(base, "/api/auth/login", { method: "POST", body: who });
      await httpJson(base, "/api/agents/me/status", { method: "PUT", token: login.data.token, body: { status: "online" } });
      const device = createTestSubscription(`${base}/simulator/push/send/bench-${tag}-${i}`);
      const sub = await httpJson(base, "/api/push/subscriptions", { method: "POST", token: login.data.token, body: { endpoint: device.endpoint, keys: device.keys } });
      if (sub.status >= 300) throw new Error(`subscription: ${sub.status} ${JSON.stringify(sub.data)}`);
      devices.push(device);
    }

    const waitingAt = new Map<string, number>();
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(session.token)}`);
    await new Promise<void>((res, rej) => {
      ws.once("open", () => res());
      ws.once("error", rej);
    });
    ws.on("message", (raw) => {
      const frame = JSON.parse(String(raw)) as { event: string; data: { action?: string; ticket?: { uuid: string; status: string; userId: number | null; queueId: number | null } } };
      const t = frame.data.ticket;
      if (frame.event === "ticket" && frame.data.action === "update" && t && t.queueId === q.data.id && t.status === "pending" && t.userId === null && !waitingAt.has(t.uuid)) waitingAt.set(t.uuid, Date.now());
    });

    const total = RATE * SECONDS;
    const started = performance.now();
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < total; i++) {
      const wait = started + (i * 1000) / RATE - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sends.push(httpJson(base, `/simulator/api/customers/55119${String(53000000 + i)}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body: `oi ${tag}`, name: `Push bench ${i}` } }));
    }
    await Promise.all(sends);
    const expected = total * AGENTS;
    type Received = { id: string; at: number; body: string };
    const received = async () => (await httpJson<Received[]>(base, "/simulator/push/api/received")).data.filter((r) => r.id.startsWith(`bench-${tag}-`));
    const deadline = Date.now() + 60_000;
    let got = await received();
    while (got.length < expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      got = await received();
    }
    ws.close();
    const latency: number[] = [];
    for (const r of got) {
      const device = devices[Number(r.id.split("-").pop())]!;
      const payload = JSON.parse(decryptPushBody(Buffer.from(r.body, "base64url"), device)) as { tag: string };
      const at = waitingAt.get(payload.tag.replace(/^ticket-/, ""));
      if (at !== undefined) latency.push(r.at - at);
    }
    return {
      rate: RATE,
      seconds: SECONDS,
      agents: AGENTS,
      tickets: total,
      seenWaiting: waitingAt.size,
      pushesExpected: expected,
      pushesReceived: got.length,
      waitingToPushMsP50: percentile(latency, 50),
      waitingToPushMsP99: percentile(latency, 99),
      waitingToPushMsMax: percentile(latency, 100),
    };
  } finally {
    await platform.stop();
  }
}
