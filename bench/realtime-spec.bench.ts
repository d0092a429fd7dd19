import { randomBytes } from "node:crypto";
import { io } from "socket.io-client";
import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { startPlatform, type Platform } from "../infra/local/src/platform";
import { httpJson, poll } from "../e2e/support/http";
import { percentile } from "./stats";

/**
 * Issue 28 (ADR 0068): the spec client's live paths on the local platform, through socket.io-client exactly as such a
 * client opens it (backend URL `<origin>/api`: namespace /api, websocket only, token in the query, joins after `ready`):
 * 1. new message: a customer's message sent at the simulator -> `company-{id}-appMessage` (create) at the client;
 * 2. closed ticket: the attendant's `PUT /api/tickets/{id}` `{status: "closed"}` -> `company-{id}-ticket` (update to
 *    closed, or delete) at the client.
 * One at a time after BENCH_RT_WARMUP untimed messages; BENCH_RT_MESSAGES customers (each one message, then its ticket
 * closed). Target: p99 <= 500 ms for both.
 */
const MESSAGES = Number(process.env.BENCH_RT_MESSAGES ?? 100);
const WARMUP = Number(process.env.BENCH_RT_WARMUP ?? 10);
const TARGET_P99_MS = 500;

type Frame = { name: string; data: { action?: string; message?: { body: string; fromMe: boolean; ticketId: number }; ticket?: { id: number; status: string }; ticketId?: number } };

const run = async (platform: Platform) => {
  const base = platform.url;
  const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
  const login = await httpJson<{ token: string; user: { companyId: number } }>(base, "/api/auth/login", { method: "POST", body: { email: admin.email, password: admin.password } });
  const token = login.data.token;
  const companyId = login.data.user.companyId;
  const list = await httpJson<{ id: number; name: string }[] | { whatsapps: { id: number; name: string }[] }>(base, "/api/whatsapp/", { token });
  const all = Array.isArray(list.data) ? list.data : list.data.whatsapps;
  const whatsappId = all.find((w) => w.name === "Simulador")?.id ?? all[0]!.id;
  const statusOf = async () =>
    (await httpJson<{ companyId: number; whatsappId: number; status: string }[]>(base, "/simulator/api/connections")).data.find((c) => c.companyId === companyId && c.whatsappId === whatsappId)?.status;
  if ((await statusOf()) !== "CONNECTED") {
    await httpJson(base, `/api/whatsappsession/${whatsappId}`, { method: "POST", token });
    await poll(statusOf, (s) => s === "qrcode");
    await httpJson(base, `/simulator/api/connections/${companyId}/${whatsappId}/scan`, { method: "POST", body: { number: "5511900000001" } });
    await poll(statusOf, (s) => s === "CONNECTED");
  }

  // the spec's client
  const socket = io(`${base}/api`, { transports: ["websocket"], query: { token }, reconnection: false });
  const waiters = new Set<(f: Frame) => boolean>();
  let ready = false;
  socket.on("ready", () => (ready = true));
  socket.onAny((name: string, data: Frame["data"]) => {
    for (const w of [...waiters]) if (w({ name, data })) waiters.delete(w);
  });
  await poll(async () => ready, (r) => r, 30_000);
  socket.emit("joinTickets", "pending");
  socket.emit("joinTickets", "open");
  socket.emit("joinNotification");
  /** resolves with the ms from `start` to the first frame matching `match` (rejects after 30 s) */
  const arrival = (match: (f: Frame) => boolean, start: () => number) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no frame in 30 s")), 30_000);
      waiters.add((f) => {
        if (!match(f)) return false;
        clearTimeout(timer);
        resolve(performance.now() - start());
        return true;
      });
    });

  const tag = randomBytes(3).toString("hex");
  const number = (i: number) => `55119${String(60000000 + i)}`;
  /** a customer's message -> its appMessage; answers the latency and the ticket */
  const message = async (i: number) => {
    const body = `rt ${tag} ${i}`;
    let sent = 0;
    const got = arrival((f) => f.name === `company-${companyId}-appMessage` && f.data.action === "create" && f.data.message?.body === body, () => sent);
    const ticket = new Promise<number>((resolve) => waiters.add((f) => (f.data.message?.body === body ? (resolve(f.data.message.ticketId), true) : false)));
    sent = performance.now();
    const res = await httpJson(base, `/simulator/api/customers/${number(i)}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: `RT ${i}` } });
    if (res.status !== 201) throw new Error(`simulator send: ${res.status}`);
    return { ms: await got, ticketId: await ticket };
  };
  /** the attendant closes the ticket -> its ticket update (closed) or delete */
  const close = async (ticketId: number) => {
    let sent = 0;
    const got = arrival(
      (f) =>
        f.name === `company-${companyId}-ticket` &&
        ((f.data.action === "update" && f.data.ticket?.id === ticketId && f.data.ticket.status === "closed") || (f.data.action === "delete" && f.data.ticketId === ticketId)),
      () => sent,
    );
    sent = performance.now();
    const res = await httpJson(base, `/api/tickets/${ticketId}`, { method: "PUT", token, body: { status: "closed" } });
    const answered = performance.now() - sent;
    if (res.status !== 200) throw new Error(`close: ${res.status} ${JSON.stringify(res.data)}`);
    return { frame: await got, answered };
  };

  for (let i = 0; i < WARMUP; i++) await close((await message(1000 + i)).ticketId);
  const newMessage: number[] = [];
  const closedTicket: number[] = [];
  /** the PUT's own answer time: how much of the closed ticket's latency is the request itself */
  const closeAnswered: number[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const m = await message(i);
    newMessage.push(m.ms);
    const c = await close(m.ticketId);
    closedTicket.push(c.frame);
    closeAnswered.push(c.answered);
  }
  socket.disconnect();
  const figures = (xs: number[]) => {
    const p99 = percentile(xs, 99, 0) ?? Number.NaN;
    return { n: xs.length, p50Ms: percentile(xs, 50, 0), p99Ms: p99, maxMs: Math.round(Math.max(...xs)), targetP99Ms: TARGET_P99_MS, met: p99 <= TARGET_P99_MS };
  };
  return {
    client: "socket.io-client, namespace /api, websocket only",
    newMessage: figures(newMessage),
    closedTicket: figures(closedTicket),
    closedTicketPutAnswer: { p50Ms: percentile(closeAnswered, 50, 0), p99Ms: percentile(closeAnswered, 99, 0) },
  };
};

export default async function realtimeSpecBench() {
  const platform = await startPlatform({ logLevel: "error", tick: false, env: { BCRYPT_ROUNDS: "4" } });
  try {
    return await run(platform);
  } finally {
    await platform.stop();
  }
}
