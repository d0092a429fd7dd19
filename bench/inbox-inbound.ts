import { randomBytes } from "node:crypto";
import WebSocket from "ws";
import type { Platform } from "../infra/local/src/platform";
import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { httpJson, poll } from "../e2e/support/http";
import { percentile } from "./stats";

/**
 * The inbox bench's inbound part (bench/inbox.bench.ts): customers write through the simulator, timed from the
 * simulator's send to the `appMessage` frame on an admin's socket; a burst, then a paced phase.
 */
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50);
const PER_CUSTOMER = Number(process.env.BENCH_MESSAGES_PER_CUSTOMER ?? 10);
/** paced phase: each customer writes every PACE_S seconds for PACED_SECONDS */
const PACE_S = Number(process.env.BENCH_PACE_S ?? 6);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 60);

const http = <T>(base: string, path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(base, path, init);

export const inboundBench = async (platform: Platform) => {
  const base = platform.url;
  const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
  const login = await http<{ token: string; user: { companyId: number } }>(base, "/api/auth/login", { method: "POST", body: { email: admin.email, password: admin.password } });
  const token = login.data.token;
  const companyId = login.data.user.companyId;
  const list = await http<{ id: number; name: string }[] | { whatsapps: { id: number; name: string }[] }>(base, "/api/whatsapp/", { token });
  const all = Array.isArray(list.data) ? list.data : list.data.whatsapps;
  const whatsappId = all.find((w) => w.name === "Simulador")?.id ?? all[0]!.id;
  const statusOf = async () => (await http<{ companyId: number; whatsappId: number; status: string }[]>(base, "/simulator/api/connections")).data.find((c) => c.companyId === companyId && c.whatsappId === whatsappId)?.status;
  if ((await statusOf()) !== "CONNECTED") {
    await http(base, `/api/whatsappsession/${whatsappId}`, { method: "POST", token });
    await poll(statusOf, (s) => s === "qrcode");
    await http(base, `/simulator/api/connections/${companyId}/${whatsappId}/scan`, { method: "POST", body: { number: "5511900000001" } });
    await poll(statusOf, (s) => s === "CONNECTED");
  }

  // where the time goes: handler durations per inbound event type, and the wait before the handler starts
  const handlerMs: Record<string, number[]> = {};
  const queueWaitMs: number[] = [];
  const inbound = platform.container.services.inbound as unknown as Record<string, (e: { message?: { body: string } }) => Promise<void>>;
  for (const name of ["message", "messageUpdate", "commandResult", "presence"]) {
    const original = inbound[name]!.bind(inbound);
    inbound[name] = async (e) => {
      const s = performance.now();
      const sent = e.message ? sentAt.get(e.message.body) : undefined;
      if (sent !== undefined) queueWaitMs.push(s - sent);
      try {
        await original(e);
      } finally {
        (handlerMs[name] ??= []).push(performance.now() - s);
      }
    };
  }
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let lastAt = 0;
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`);
  await new Promise<void>((res, rej) => {
    ws.once("open", () => res());
    ws.once("error", rej);
  });
  ws.on("message", (raw) => {
    const frame = JSON.parse(String(raw)) as { event: string; data: { action?: string; message?: { body: string; fromMe: boolean } } };
    if (frame.event !== "appMessage" || frame.data.action !== "create" || frame.data.message?.fromMe) return;
    const started = sentAt.get(frame.data.message!.body);
    if (started === undefined) return;
    sentAt.delete(frame.data.message!.body);
    latencies.push(performance.now() - started);
    received++;
    lastAt = performance.now();
  });

  const tag = randomBytes(3).toString("hex");
  const customerNumber = (i: number) => `55119${String(30000000 + i)}`;
  const send = async (i: number, body: string) => {
    sentAt.set(body, performance.now());
    await http(base, `/simulator/api/customers/${customerNumber(i)}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: `Bench ${i}` } });
  };

  // 1. burst: every customer writes PER_CUSTOMER messages back to back -> the most the pipeline sustains
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CUSTOMERS }, async (_, i) => {
      for (let k = 0; k < PER_CUSTOMER; k++) await send(i, `bench ${tag} ${i} ${k}`);
    }),
  );
  const total = CUSTOMERS * PER_CUSTOMER;
  await poll(async () => received, (n) => n >= total, 180_000);
  const seconds = (lastAt - started) / 1000;
  const burstLatencies = latencies.splice(0);

  // 2. paced: the same customers writing like people do (one message every PACE_S seconds each, WhatsApp's pace
  //    for one chat) -> the send-to-browser latency at that load
  const pacedStart = performance.now();
  let pacedSent = 0;
  await Promise.all(
    Array.from({ length: CUSTOMERS }, async (_, i) => {
      await new Promise((r) => setTimeout(r, Math.random() * PACE_S * 1000));
      for (let k = 0; performance.now() - pacedStart < PACED_SECONDS * 1000; k++) {
        pacedSent++;
        await send(i, `paced ${tag} ${i} ${k}`);
        await new Promise((r) => setTimeout(r, PACE_S * 1000));
      }
    }),
  );
  await poll(async () => received, (n) => n >= total + pacedSent, 120_000);
  ws.close();
  return {
    customers: CUSTOMERS,
    burst: {
      messagesSent: total,
      messagesPushedToBrowser: total,
      sustainedMessagesPerSecond: Math.round((total / seconds) * 10) / 10,
      latencyMsP50: percentile(burstLatencies, 50),
      latencyMsP99: percentile(burstLatencies, 99),
    },
    paced: {
      offeredMessagesPerSecond: Math.round((CUSTOMERS / PACE_S) * 10) / 10,
      messagesSent: pacedSent,
      messagesPushedToBrowser: received - total,
      latencyMsP50: percentile(latencies, 50),
      latencyMsP99: percentile(latencies, 99),
    },
    queueWaitMsP50: percentile(queueWaitMs, 50),
    handlerMs: Object.fromEntries(Object.entries(handlerMs).map(([k, v]) => [k, { count: v.length, p50: percentile(v, 50), p99: percentile(v, 99) }])),
  };
};
