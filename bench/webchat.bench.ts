import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import WebSocket from "ws";
import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { startPlatform } from "../infra/local/src/platform";
import { httpJson } from "../e2e/support/http";
import { percentile } from "./stats";

/**
 * The website chat, measured (issue 31 "Measured", docs/adr/0096), on the local platform:
 * - visitor → agent: `POST /api/webchat/{key}/messages` → the `appMessage` frame on the agent's browser socket;
 * - agent → visitor: `POST /api/messages/{ticketId}` → the reply on the visitor's widget, two ways: over the
 *   visitor's socket (now) and by the widget's former 2 s read of `GET messages` (before, played here as the old
 *   widget did it, against the same server);
 * - the widget's size (built as the app's build does, gzipped).
 * VISITORS visitors write MESSAGES messages each at once (a burst), and one more visitor SEQUENTIAL messages one
 * at a time, each answered (latency without queueing). All from one address: ≤ 120 visitor messages a minute in all.
 */
const VISITORS = Number(process.env.BENCH_WEBCHAT_VISITORS ?? 10);
const MESSAGES = Number(process.env.BENCH_WEBCHAT_MESSAGES ?? 8);
const SEQUENTIAL = Number(process.env.BENCH_WEBCHAT_SEQUENTIAL ?? 25);
const OLD_POLL_MS = 2000;
const SHOP = "http://bench-shop.localhost:9000";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stats = (ms: number[]) => ({ n: ms.length, p50Ms: Math.round(percentile(ms, 50) ?? Number.NaN), p99Ms: Math.round(percentile(ms, 99) ?? Number.NaN) });
const waitFor = async (has: () => boolean, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs;
  while (!has() && Date.now() < end) await sleep(2);
  return has();
};

const widgetSize = async () => {
  const outDir = mkdtempSync(join(tmpdir(), "webchat-bench-"));
  try {
    const root = resolve(import.meta.dirname, "../web");
    await build({ root, configFile: join(root, "vite.webchat.config.ts"), logLevel: "silent", build: { outDir } });
    const file = readdirSync(outDir).find((f) => /^webchat\.[0-9a-f]{10}\.js$/.test(f))!;
    const code = readFileSync(join(outDir, file));
    return { widgetBytes: code.byteLength, widgetGzBytes: gzipSync(code).byteLength, loaderBytes: readFileSync(join(outDir, "webchat.js")).byteLength, budgetGzBytes: 30 * 1024 };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
};

export default async function bench(): Promise<Record<string, unknown>> {
  const size = await widgetSize();
  const platform = await startPlatform({ logLevel: "warn", tick: false });
  const sockets: WebSocket[] = [];
  try {
    const base = platform.url;
    const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
    const { token } = (await httpJson<{ token: string }>(base, "/api/auth/login", { method: "POST", body: admin })).data;
    const made = await httpJson<{ id: number }>(base, "/api/whatsapp", { method: "POST", token, body: { name: `Site bench ${Date.now()}`, provider: "webchat", allowedOrigins: [SHOP] } });
    if (made.status !== 200) throw new Error(`webchat connection: ${made.status} ${JSON.stringify(made.data)}`);
    const key = (await httpJson<{ channelSettings: { publicKey: string } }>(base, `/api/whatsapp/${made.data.id}`, { token })).data.channelSettings.publicKey;
    const visitorApi = <T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
      fetch(`${base}/api/webchat/${key}/${path}`, {
        method: init.method ?? "GET",
        headers: { origin: SHOP, "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }).then(async (r) => ({ status: r.status, data: (await r.json()) as T }));

    // the agent's browser socket: when each message's appMessage arrived
    const agentArrived = new Map<string, number>();
    const agent = new WebSocket(`${base.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`);
    sockets.push(agent);
    await new Promise<void>((res, rej) => (agent.once("open", () => res()), agent.once("error", rej)));
    agent.on("message", (raw) => {
      const frame = JSON.parse(String(raw)) as { event: string; data: { action?: string; message?: { body: string } } };
      if (frame.event === "appMessage" && frame.data.action === "create" && frame.data.message) agentArrived.set(frame.data.message.body, performance.now());
    });

    // visitors, each with their socket (as the widget opens it)
    const visitorArrived = new Map<string, number>();
    const visitors = await Promise.all(
      Array.from({ length: VISITORS + 1 }, async (_, i) => {
        const name = `Bench Visitante ${i} ${Date.now()}`;
        const session = await visitorApi<{ token: string }>("sessions", { method: "POST", body: { name } });
        if (session.status !== 201) throw new Error(`session ${session.status}`);
        const ws = new WebSocket(`${base.replace(/^http/, "ws")}/socket.io/?webchat=${key}&token=${encodeURIComponent(session.data.token)}`, { origin: SHOP });
        sockets.push(ws);
        await new Promise<void>((res, rej) => (ws.once("open", () => res()), ws.once("error", rej)));
        ws.on("message", (raw) => {
          const frame = JSON.parse(String(raw)) as { type: string; message: { body: string } };
          if (frame.type === "message") visitorArrived.set(frame.message.body, performance.now());
        });
        return { name, token: session.data.token, ticketId: 0 };
      }),
    );

    const reply = async (v: (typeof visitors)[number], body: string) => {
      const res = await httpJson(base, `/api/messages/${v.ticketId}`, { method: "POST", token, body: { body } });
      if (res.status !== 201) throw new Error(`reply ${res.status} ${JSON.stringify(res.data)}`);
    };
    // one message at a time (latency without the burst's queueing): one visitor writes, the agent answers
    const seqToAgent: number[] = [];
    const seqToVisitor: number[] = [];
    const one = visitors.pop()!;
    for (let n = 0; n < SEQUENTIAL; n++) {
      const body = `wc seq ${n}-${Date.now()}`;
      let started = performance.now();
      const sent = await visitorApi("messages", { method: "POST", token: one.token, body: { body } });
      if (sent.status !== 201) throw new Error(`visitor message ${sent.status} ${JSON.stringify(sent.data)}`);
      if (await waitFor(() => agentArrived.has(body))) seqToAgent.push(agentArrived.get(body)! - started);
      const answer = `agent seq ${n}-${Date.now()}`;
      if (!one.ticketId) one.ticketId = (await httpJson<{ tickets: { id: number; contact: { name: string } }[] }>(base, "/api/tickets?showAll=true", { token })).data.tickets.find((x) => x.contact.name === one.name)?.id ?? 0;
      started = performance.now();
      await reply(one, answer);
      if (await waitFor(() => visitorArrived.has(answer))) seqToVisitor.push(visitorArrived.get(answer)! - started);
    }
    // visitor → agent's browser
    const toAgent: number[] = [];
    for (let round = 0; round < MESSAGES; round++) {
      await Promise.all(
        visitors.map(async (v, i) => {
          const body = `wc bench ${round}-${i}-${Date.now()}`;
          const started = performance.now();
          const sent = await visitorApi("messages", { method: "POST", token: v.token, body: { body } });
          if (sent.status !== 201) throw new Error(`visitor message ${sent.status} ${JSON.stringify(sent.data)}`);
          if (await waitFor(() => agentArrived.has(body))) toAgent.push(agentArrived.get(body)! - started);
        }),
      );
    }
    const tickets = (await httpJson<{ tickets: { id: number; contact: { name: string } }[] }>(base, "/api/tickets?showAll=true", { token })).data.tickets;
    for (const v of visitors) v.ticketId = tickets.find((x) => x.contact.name === v.name)?.id ?? 0;
    if (visitors.some((v) => !v.ticketId)) throw new Error("a visitor's ticket was not found");

    // agent → visitor: over the visitor's socket (after), and as the old widget read it every 2 s (before)
    const overSocket: number[] = [];
    const byOldPoll: number[] = [];
    for (let round = 0; round < MESSAGES; round++) {
      await Promise.all(
        visitors.map(async (v, i) => {
          const body = `agent bench ${round}-${i}-${Date.now()}`;
          const started = performance.now();
          await reply(v, body);
          if (await waitFor(() => visitorArrived.has(body))) overSocket.push(visitorArrived.get(body)! - started);
        }),
      );
    }
    // the old widget: a read every 2 s from its own phase; the reply is seen at the first read that lists it
    const pollRounds = Math.max(1, Math.round(MESSAGES / 2));
    for (let round = 0; round < pollRounds; round++) {
      await Promise.all(
        visitors.map(async (v, i) => {
          const body = `agent poll ${round}-${i}-${Date.now()}`;
          await sleep(Math.random() * OLD_POLL_MS);
          const started = performance.now();
          let seen = 0;
          let next = started + Math.random() * OLD_POLL_MS;
          const poller = (async () => {
            while (!seen && performance.now() - started < 20_000) {
              await sleep(Math.max(0, next - performance.now()));
              next += OLD_POLL_MS;
              const read = await visitorApi<{ messages: { body: string }[] }>("messages", { token: v.token });
              if (read.data.messages.some((m) => m.body === body)) seen = performance.now();
            }
          })();
          await reply(v, body);
          await poller;
          if (seen) byOldPoll.push(seen - started);
        }),
      );
    }
    return {
      visitors: VISITORS,
      messagesPerVisitor: MESSAGES,
      loadAverage1m: Math.round(loadavg()[0]! * 10) / 10,
      burst: { visitorToAgentBrowser: stats(toAgent), agentToVisitorSocket: stats(overSocket) },
      sequential: { visitorToAgentBrowser: stats(seqToAgent), agentToVisitorSocket: stats(seqToVisitor) },
      agentToVisitor: { before2sPoll: stats(byOldPoll), afterSocketBurst: stats(overSocket), afterSocketSequential: stats(seqToVisitor) },
      widget: size,
    };
  } finally {
    sockets.forEach((s) => s.close());
    await platform.stop();
  }
}
