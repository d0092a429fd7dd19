import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { startPlatform, type Platform } from "../infra/local/src/platform";
import { httpJson, poll } from "../e2e/support/http";
import { percentile } from "./stats";

/**
 * Live messages on the local platform as `npm start` runs it (queues durable; its data files on a tmpfs by default,
 * BENCH_LIVE_STORAGE=disk keeps them on disk: see STORAGE below and docs/adr/0048), issue 15 item 3:
 * 1. sustained: 50 customers, each writing once a second (50 messages/s) for BENCH_LIVE_SECONDS: customer send
 *    (simulator) -> `appMessage` frame on the admin's browser socket, p50/p99. Target p50 <= 50 ms, p99 <= 250 ms;
 * 2. burst: 500 messages from 50 customers at once, each until its frame arrives, p99 (target <= 5 s);
 * 3. reply: the attendant's POST /api/messages/{ticketId} -> the message on the customer's phone, p50 (target <= 100 ms).
 * Before them, `oneMessage`: BENCH_LIVE_PROFILE_MESSAGES (20) messages one at a time on the idle platform, each split
 * into send -> handler start (simulator, session host, queue), handler start -> frame (store, realtime fan-out) and
 * the whole handler; the DynamoDB calls made meanwhile (the handler's and what it set off) counted, timed and, for
 * the median message, listed with their caller.
 * The customers never answer the demo connection's queue menu, so by default every measured message is a free text
 * at the menu and the menu goes out again (an automatic answer, its 3 acks as 3 more inbound events).
 * BENCH_LIVE_PICK_QUEUE=1: each customer picks the first queue after the warm-up (its greeting arrives), so the
 * measured messages land on a ticket waiting in a queue with nothing sent back, as most of a real conversation.
 * `work` (sustained and burst, docs/adr/0045): CPU ms per message of this process (the whole platform but DynamoDB
 * Local, plus these clients) and of DynamoDB Local's JVM, the idle rate of both subtracted; inbound events and
 * DynamoDB calls per message. BENCH_LIVE_CPU_PROFILE=<file>: the sustained phase's CPU profile (the profiler slows
 * the process: not for timing runs). BENCH_LIVE_TIMELINE=<file>: each sustained and burst message's send time and
 * latency, to see when in a phase the slow ones came.
 */
const CUSTOMERS = Number(process.env.BENCH_LIVE_CUSTOMERS ?? 50);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 20);
const BURST_PER_CUSTOMER = Number(process.env.BENCH_LIVE_BURST_PER_CUSTOMER ?? 10);
const REPLIES = Number(process.env.BENCH_LIVE_REPLIES ?? 50);
const PROFILE_MESSAGES = Number(process.env.BENCH_LIVE_PROFILE_MESSAGES ?? 20);
const PICK_QUEUE = process.env.BENCH_LIVE_PICK_QUEUE === "1";
/**
 * Seconds of untimed load before the measured phases (docs/adr/0060): BENCH_LIVE_CUSTOMERS other customers arrive as
 * the measured ones do (first message; with PICK_QUEUE, "1" at the menu) and write once a second each, as in the
 * sustained phase. A fresh DynamoDB Local JVM compiles its hot code during its first ~10-15 s under load (C2 took
 * 0.4-0.9 of a core then, on 2 cores), which a running platform paid long ago and DynamoDB itself never pays. The
 * measured customers stay new: their tickets, menus and contacts are first met in the measured phases. 0: cold.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_LIVE_WARMUP_SECONDS ?? 20);
/** a file to write the platform process's CPU profile of the sustained phase to (Chrome DevTools' .cpuprofile) */
const CPU_PROFILE = process.env.BENCH_LIVE_CPU_PROFILE;
/** a file to write the sustained and burst phases' messages to, each `[sent at ms since the phase began, latency ms]` */
const TIMELINE = process.env.BENCH_LIVE_TIMELINE;

/** CPU time (user + system, ms) a process and its descendants used so far, from /proc (Linux); null elsewhere. */
const treeCpuMs = (pid: number): number | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime, stime, cutime, cstime (fields 14-17, in clock ticks: 100 per second on Linux)
    let ms = (Number(fields[11]) + Number(fields[12])) * 10;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean)) ms += treeCpuMs(Number(child)) ?? 0;
    }
    return ms;
  } catch {
    return null;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const run = async (platform: Platform) => {
  const base = platform.url;
  const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
  const login = await httpJson<{ token: string; user: { companyId: number } }>(base, "/api/auth/login", { method: "POST", body: { email: admin.email, password: admin.password } });
  const token = login.data.token;
  const companyId = login.data.user.companyId;
  const list = await httpJson<{ id: number; name: string }[] | { whatsapps: { id: number; name: string }[] }>(base, "/api/whatsapp/", { token });
  const all = Array.isArray(list.data) ? list.data : list.data.whatsapps;
  const whatsappId = all.find((w) => w.name === "Simulador")?.id ?? all[0]!.id;
  const ref = { companyId, whatsappId };
  const statusOf = async () => (await httpJson<{ companyId: number; whatsappId: number; status: string }[]>(base, "/simulator/api/connections")).data.find((c) => c.companyId === companyId && c.whatsappId === whatsappId)?.status;
  if ((await statusOf()) !== "CONNECTED") {
    await httpJson(base, `/api/whatsappsession/${whatsappId}`, { method: "POST", token });
    await poll(statusOf, (s) => s === "qrcode");
    await httpJson(base, `/simulator/api/connections/${companyId}/${whatsappId}/scan`, { method: "POST", body: { number: "5511900000001" } });
    await poll(statusOf, (s) => s === "CONNECTED");
  }

  // where the time goes: from the simulator send to the inbound handler's start (queue, session host), and the handler
  const queueWaitMs: number[] = [];
  const handlerMs: number[] = [];
  const inbound = platform.container.services.inbound as unknown as Record<string, (e: { message?: { body: string } }) => Promise<void>>;
  const original = inbound.message!.bind(inbound);
  /** while profiling one message at a time: the DynamoDB calls made meanwhile (the handler's and what it set off) */
  let trace: { calls: { name: string; ms: number }[] } | null = null;
  /** inbound events handled, by kind (a customer message, an ack, a command's result ...) */
  const events = new Map<string, number>();
  for (const kind of Object.keys(inbound).filter((k) => k !== "message" && typeof inbound[k] === "function")) {
    const fn = inbound[kind]!.bind(inbound);
    inbound[kind] = async (e) => {
      events.set(kind, (events.get(kind) ?? 0) + 1);
      return fn(e);
    };
  }
  inbound.message = async (e) => {
    events.set("message", (events.get("message") ?? 0) + 1);
    const s = performance.now();
    const sent = e.message ? sentAt.get(e.message.body) : undefined;
    if (sent !== undefined) queueWaitMs.push(s - sent);
    try {
      await original(e);
    } finally {
      handlerMs.push(performance.now() - s);
    }
  };
  const doc = platform.container.db.doc;
  const docSend = doc.send.bind(doc) as (command: object) => Promise<unknown>;
  /** the first caller outside the platform's db helpers: "file.ts:line" */
  const callerOf = (stack: string | undefined) =>
    (stack ?? "")
      .split("\n")
      .slice(2)
      .map((line) => /\/(functions|session-host|infra)\/src\/(?:.*\/)?([\w.-]+\.ts):(\d+)/.exec(line))
      .find((m) => m && !m[0].includes("/platform/db/"))
      ?.slice(2, 4)
      .join(":") ?? "?";
  /** every DynamoDB call the platform makes, by command */
  const dbCalls = new Map<string, number>();
  (doc as unknown as { send: (command: object) => Promise<unknown> }).send = async (command) => {
    const name = command.constructor.name.replace(/Command$/, "");
    dbCalls.set(name, (dbCalls.get(name) ?? 0) + 1);
    const s = performance.now();
    const stack = trace ? new Error().stack : undefined;
    try {
      return await docSend(command);
    } finally {
      trace?.calls.push({ name: `${command.constructor.name.replace(/Command$/, "")} ${callerOf(stack)}`, ms: performance.now() - s });
    }
  };
  /**
   * The work a phase cost, load-independent: CPU time of this process (the platform: API, consumers, WebSocket gateway,
   * local SQS, session host and simulator, plus this bench's clients) and of DynamoDB Local's JVM, the inbound events
   * handled by kind and the DynamoDB calls, per customer message.
   */
  const dynamoPid = platform.dynamo.process.pid;
  const work = () => {
    const cpu = process.cpuUsage();
    return { nodeMs: (cpu.user + cpu.system) / 1000, dynamoMs: dynamoPid ? treeCpuMs(dynamoPid) : null, events: new Map(events), dbCalls: new Map(dbCalls), at: performance.now() };
  };
  /** CPU ms per second both processes use when idle (long polls, timers), subtracted from a phase's figures */
  let idleRate = { nodeMs: 0, dynamoMs: 0 };
  const workSince = (start: ReturnType<typeof work>, messages: number) => {
    const end = work();
    const seconds = (end.at - start.at) / 1000;
    const per = (n: number) => Math.round((n / Math.max(1, messages)) * 100) / 100;
    const diff = (a: Map<string, number>, b: Map<string, number>) => Object.fromEntries([...a].map(([k, v]) => [k, per(v - (b.get(k) ?? 0))]).filter(([, v]) => Number(v) > 0));
    const nodeMs = end.nodeMs - start.nodeMs - idleRate.nodeMs * seconds;
    const dynamoMs = end.dynamoMs !== null && start.dynamoMs !== null ? end.dynamoMs - start.dynamoMs - idleRate.dynamoMs * seconds : null;
    return {
      seconds: Math.round(seconds * 10) / 10,
      cpuMsPerMessage: { platformNode: per(nodeMs), dynamoDbLocal: dynamoMs === null ? null : per(dynamoMs), idleMsPerSecondSubtracted: { platformNode: Math.round(idleRate.nodeMs), dynamoDbLocal: Math.round(idleRate.dynamoMs) } },
      coresBusy: { platformNode: Math.round((nodeMs / 1000 / seconds) * 100) / 100, dynamoDbLocal: dynamoMs === null ? null : Math.round((dynamoMs / 1000 / seconds) * 100) / 100 },
      inboundEventsPerMessage: diff(end.events, start.events),
      dynamoCallsPerMessage: diff(end.dbCalls, start.dbCalls),
    };
  };
  const sentAt = new Map<string, number>();
  /** customer index -> their ticket, from the frames */
  const ticketOf = new Map<number, number>();
  const latencies: number[] = [];
  /** when each latency's message was sent (performance.now()), in the same order */
  const sentTimes: number[] = [];
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`);
  await new Promise<void>((res, rej) => {
    ws.once("open", () => res());
    ws.once("error", rej);
  });
  ws.on("message", (raw) => {
    const frame = JSON.parse(String(raw)) as { event: string; data: { action?: string; message?: { body: string; fromMe: boolean; ticketId?: number } } };
    if (frame.event !== "appMessage" || frame.data.action !== "create" || frame.data.message?.fromMe) return;
    const customer = /^\w+ \w+ (\d+)/.exec(frame.data.message!.body)?.[1];
    if (customer !== undefined && frame.data.message!.ticketId) ticketOf.set(Number(customer), frame.data.message!.ticketId);
    const started = sentAt.get(frame.data.message!.body);
    if (started === undefined) return;
    sentAt.delete(frame.data.message!.body);
    latencies.push(performance.now() - started);
    sentTimes.push(started);
  });

  const tag = randomBytes(3).toString("hex");
  const number = (i: number) => `55119${String(50000000 + i)}`;
  const send = async (i: number, body: string) => {
    sentAt.set(body, performance.now());
    const res = await httpJson(base, `/simulator/api/customers/${number(i)}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: `Live ${i}` } });
    if (res.status !== 201) throw new Error(`simulator send: ${res.status}`);
  };
  /** waits for every sent message's frame; returns how many never came (then dropped from the wait) */
  const drained = async () => {
    const left = await poll(async () => sentAt.size, (n) => n === 0, 90_000);
    sentAt.clear();
    return left;
  };

  /** customers `from` .. `from + count - 1` */
  const range = (from: number, count: number) => Array.from({ length: count }, (_, k) => from + k);
  /**
   * Every customer's first message creates its contact and ticket (not what is measured); with PICK_QUEUE each then
   * answers the menu with "1" (the first queue), done when each one's ticket waits in a queue (the demo's queues have
   * no greeting, so nothing on the phone says it). Returns how many first messages never came.
   */
  const arrive = async (customers: number[]) => {
    await Promise.all(customers.map((i) => send(i, `first ${tag} ${i}`)));
    const lost = await drained();
    if (!PICK_QUEUE) return lost;
    const network = platform.network;
    const sentToCustomer = (i: number) => network.chat(number(i), ref).messages.filter((m) => !m.fromCustomer).length;
    // the first message's menu is on every phone first
    await poll(async () => customers.every((i) => sentToCustomer(i) > 0), (ok) => ok, 90_000);
    await Promise.all(
      customers.map(async (i) => {
        const res = await httpJson(base, `/simulator/api/customers/${number(i)}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body: "1", name: `Live ${i}` } });
        if (res.status !== 201) throw new Error(`simulator send: ${res.status}`);
      }),
    );
    const numbers = new Set(customers.map(number));
    const queued = async () => {
      let n = 0;
      for (let page = 1; ; page++) {
        const res = await httpJson<{ tickets?: { queueId: number | null; contact: { number: string } | null }[]; hasMore?: boolean }>(base, `/api/tickets?status=pending&showAll=true&pageNumber=${page}`, { token });
        n += (res.data.tickets ?? []).filter((x) => x.queueId !== null && numbers.has(x.contact?.number ?? "")).length;
        if (!res.data.hasMore) return n;
      }
    };
    const inQueue = await poll(queued, (n) => n >= customers.length, 90_000);
    if (inQueue < customers.length) throw new Error(`only ${inQueue} of ${customers.length} customers' tickets reached a queue`);
    return lost;
  };
  /** each customer writes once a second for `seconds`, the customers spread evenly over the second; returns when all are sent */
  const paced = async (customers: number[], seconds: number, label: string) => {
    const start = performance.now();
    await Promise.all(
      customers.map(async (i, n) => {
        for (let k = 0; k < seconds; k++) {
          const due = start + k * 1000 + (n * 1000) / customers.length;
          await sleep(Math.max(0, due - performance.now()));
          await send(i, `${label} ${tag} ${i} ${k}`);
        }
      }),
    );
    return (customers.length * seconds) / ((performance.now() - start) / 1000);
  };
  const measured = range(0, CUSTOMERS);
  const warmupLost = await arrive(measured);
  // the platform warmed by other customers in the measured phases' shape, untimed (WARMUP_SECONDS, docs/adr/0060)
  let warmup: { customers: number; seconds: number; messagesPerSecond: number; notDeliveredIn90s: number } | null = null;
  if (WARMUP_SECONDS > 0) {
    const others = range(CUSTOMERS, CUSTOMERS);
    const lost = await arrive(others);
    const rate = await paced(others, WARMUP_SECONDS, "warm");
    warmup = { customers: others.length, seconds: WARMUP_SECONDS, messagesPerSecond: Math.round(rate * 10) / 10, notDeliveredIn90s: lost + (await drained()) };
    await sleep(1000);
  }
  latencies.splice(0);
  sentTimes.splice(0);
  queueWaitMs.splice(0);
  handlerMs.splice(0);

  // 0. one message at a time on the idle platform (an existing ticket): where its milliseconds go
  const profile: { totalMs: number; toHandlerMs: number; handlerMs: number; dbCalls: number; dbMs: number; handlerStartToFrameMs: number; calls: string[] }[] = [];
  for (let k = 0; k < PROFILE_MESSAGES; k++) {
    trace = { calls: [] };
    const body = `profile ${tag} ${k % CUSTOMERS} ${k}`;
    const before = latencies.length;
    const q = queueWaitMs.length;
    const h = handlerMs.length;
    await send(k % CUSTOMERS, body);
    await poll(async () => latencies.length, (n) => n > before, 30_000);
    // the handler's tail (automation, bots) and what it set off: traced until quiet, then the next message
    await poll(async () => handlerMs.length, (n) => n > h, 30_000);
    await sleep(300);
    const total = latencies[latencies.length - 1]!;
    profile.push({
      totalMs: total,
      toHandlerMs: queueWaitMs[q] ?? NaN,
      handlerMs: handlerMs[h] ?? NaN,
      dbCalls: trace.calls.length,
      dbMs: trace.calls.reduce((sum, c) => sum + c.ms, 0),
      handlerStartToFrameMs: queueWaitMs[q] === undefined ? NaN : total - queueWaitMs[q]!,
      calls: trace.calls.map((c) => `${c.name} ${Math.round(c.ms)}`),
    });
    trace = null;
  }
  trace = null;
  const median = (key: "totalMs" | "toHandlerMs" | "handlerMs" | "dbCalls" | "dbMs" | "handlerStartToFrameMs") => percentile(profile.map((p) => p[key]).filter((v) => !Number.isNaN(v)), 50);
  const oneMessage = {
    messages: profile.length,
    sendToFrameMsP50: median("totalMs"),
    sendToHandlerStartMsP50: median("toHandlerMs"),
    handlerMsP50: median("handlerMs"),
    dynamoCallsP50: median("dbCalls"),
    dynamoMsP50: median("dbMs"),
    handlerStartToFrameMsP50: median("handlerStartToFrameMs"),
    callsOfTheMedianMessage: [...profile].sort((a, b) => a.handlerMs - b.handlerMs)[Math.floor(profile.length / 2)]?.calls,
  };
  latencies.splice(0);
  sentTimes.splice(0);
  queueWaitMs.splice(0);
  handlerMs.splice(0);

  // 1. sustained: customer i writes at i/CUSTOMERS of every second -> CUSTOMERS messages/s evenly spread
  const profiler = CPU_PROFILE ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
  }
  const idle = work();
  await sleep(3000);
  const idleEnd = work();
  const idleSeconds = (idleEnd.at - idle.at) / 1000;
  idleRate = { nodeMs: (idleEnd.nodeMs - idle.nodeMs) / idleSeconds, dynamoMs: idleEnd.dynamoMs !== null && idle.dynamoMs !== null ? (idleEnd.dynamoMs - idle.dynamoMs) / idleSeconds : 0 };
  const sustainedWork = work();
  const t0 = performance.now();
  const offered = await paced(measured, SECONDS, "live");
  const sustainedLost = await drained();
  // until the last frame arrived and the events it set off (the automatic answer's acks) were handled
  await sleep(1000);
  const sustainedCost = workSince(sustainedWork, CUSTOMERS * SECONDS);
  if (profiler && CPU_PROFILE) {
    const { profile } = await profiler.post("Profiler.stop");
    writeFileSync(CPU_PROFILE, JSON.stringify(profile));
    profiler.disconnect();
  }
  const sustained = latencies.splice(0);
  const sustainedSent = sentTimes.splice(0).map((at) => at - t0);
  const sustainedQueueWait = queueWaitMs.splice(0);
  const sustainedHandler = handlerMs.splice(0);

  // 2. burst: every customer writes BURST_PER_CUSTOMER messages back to back, all customers at once
  const burstWork = work();
  const b0 = performance.now();
  await Promise.all(
    Array.from({ length: CUSTOMERS }, async (_, i) => {
      for (let k = 0; k < BURST_PER_CUSTOMER; k++) await send(i, `burst ${tag} ${i} ${k}`);
    }),
  );
  const burstLost = await drained();
  const burstSeconds = (performance.now() - b0) / 1000;
  const burst = latencies.splice(0);
  const burstSent = sentTimes.splice(0).map((at) => at - b0);
  if (TIMELINE) {
    const pairs = (sent: number[], ms: number[]) => sent.map((at, k) => [Math.round(at), Math.round(ms[k]! * 10) / 10]);
    writeFileSync(TIMELINE, JSON.stringify({ sustained: pairs(sustainedSent, sustained), burst: pairs(burstSent, burst) }));
  }
  await sleep(1000);
  const burstCost = workSince(burstWork, CUSTOMERS * BURST_PER_CUSTOMER);
  ws.close();
  console.log(JSON.stringify({ sustained: { n: sustained.length, lost: sustainedLost, p50: percentile(sustained, 50), p99: percentile(sustained, 99) }, burst: { n: burst.length, lost: burstLost, p99: percentile(burst, 99) } }));

  // 3. replies: the admin answers each customer's ticket; timed until the message is on the customer's phone
  const network = platform.network;
  const replyLatencies: number[] = [];
  for (let r = 0; r < REPLIES; r++) {
    const i = r % CUSTOMERS;
    const ticketId = ticketOf.get(i);
    if (!ticketId) throw new Error(`no ticket for customer ${i}`);
    const body = `reply ${tag} ${r}`;
    const arrived = new Promise<number>((resolve) => {
      const check = () => {
        if (network.chat(number(i), ref).messages.some((m) => !m.fromCustomer && m.body === body)) {
          unsubscribe();
          resolve(performance.now());
        }
      };
      const unsubscribe = network.subscribe(check);
    });
    const s = performance.now();
    const res = await httpJson(base, `/api/messages/${ticketId}`, { method: "POST", token, body: { body } });
    if (res.status >= 300) throw new Error(`reply: ${res.status} ${JSON.stringify(res.data)}`);
    replyLatencies.push((await arrived) - s);
    await sleep(100);
  }

  return {
    customers: CUSTOMERS,
    scenario: PICK_QUEUE ? "ticket waiting in a queue (nothing sent back)" : "free text at the queue menu (the menu is sent again)",
    warmupNotDeliveredIn90s: warmupLost,
    warmup,
    oneMessage,
    sustained: {
      offeredMessagesPerSecond: Math.round(offered * 10) / 10,
      messagesDelivered: sustained.length,
      notDeliveredIn90s: sustainedLost,
      latencyMsP50: percentile(sustained, 50),
      latencyMsP99: percentile(sustained, 99),
      sendToHandlerStartMsP50: percentile(sustainedQueueWait, 50),
      sendToHandlerStartMsP99: percentile(sustainedQueueWait, 99),
      handlerMsP50: percentile(sustainedHandler, 50),
      handlerMsP99: percentile(sustainedHandler, 99),
      work: sustainedCost,
    },
    burst: {
      messagesDelivered: burst.length,
      notDeliveredIn90s: burstLost,
      drainedInSeconds: Math.round(burstSeconds * 10) / 10,
      latencyMsP50: percentile(burst, 50),
      latencyMsP99: percentile(burst, 99),
      handlerMsP50: percentile(handlerMs, 50),
      work: burstCost,
    },
    reply: { replies: replyLatencies.length, latencyMsP50: percentile(replyLatencies, 50), latencyMsP99: percentile(replyLatencies, 99) },
  };
};

/**
 * Where the platform keeps its data (DynamoDB Local's SQLite files, the local SQS's journal) for the run
 * (docs/adr/0048-live-bench-data-on-tmpfs.md): by default on a tmpfs (`/dev/shm`), so no write waits for this VM's
 * disk (each SQLite commit does there; in AWS no write waits for a local disk) and the figures are our code path's;
 * `BENCH_LIVE_STORAGE=disk` keeps the same files in the OS's temporary folder, on disk, as `npm start` keeps them
 * under `.data/` (reported beside the tmpfs figures: what a developer's machine with a slow disk sees). Without
 * `/dev/shm` the run is on disk and says so (`storage`).
 */
const STORAGE = process.env.BENCH_LIVE_STORAGE === "disk" || !existsSync("/dev/shm") ? "disk" : "tmpfs";
const PREFIX = "atende-live-bench-";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};
/** Some process works inside `dir` (DynamoDB Local's JVM runs with its cwd there). */
const inUse = (dir: string) => {
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) return true;
    } catch {
      // gone meanwhile, or not ours to look at
    }
  }
  return false;
};
/**
 * Data folders of earlier runs that were killed before they could remove theirs (SIGKILL, a crash of the machine):
 * named after their process (`atende-live-bench-<pid>-…`), removed when that process is gone; an older unnamed one
 * (session 7) when no process works inside it.
 */
const removeStaleDataDirs = () => {
  for (const base of new Set(["/dev/shm", tmpdir()])) {
    let names: string[] = [];
    try {
      names = readdirSync(base).filter((n) => n.startsWith(PREFIX));
    } catch {
      continue;
    }
    for (const name of names) {
      const dir = join(base, name);
      const owner = /^atende-live-bench-(\d+)-/.exec(name)?.[1];
      if (owner ? alive(Number(owner)) : inUse(dir)) continue;
      rmSync(dir, { recursive: true, force: true });
    }
  }
};

export default async function liveMessagesBench() {
  removeStaleDataDirs();
  const dataDir = mkdtempSync(join(STORAGE === "tmpfs" ? "/dev/shm" : tmpdir(), `${PREFIX}${process.pid}-`));
  // the folder goes whatever ends the run: its end, a failure (below), the process exiting early (an uncaught error,
  // process.exit) or being interrupted (Ctrl-C, kill): stop the platform (DynamoDB Local's JVM) first when possible
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  let platform: Platform | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    const stopped = platform ? Promise.race([platform.stop(), sleep(5000)]) : Promise.resolve();
    void stopped.finally(() => {
      remove();
      process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGHUP" ? 1 : 15));
    });
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const s of signals) process.once(s, onSignal);
  process.once("exit", remove);
  try {
    platform = await startPlatform({ dataDir, logLevel: "error", tick: false, env: { BCRYPT_ROUNDS: "4" } });
    return { dataOnDisk: STORAGE === "disk", storage: STORAGE, ...(await run(platform)) };
  } finally {
    try {
      await platform?.stop();
    } finally {
      remove();
      for (const s of signals) process.off(s, onSignal);
      process.off("exit", remove);
    }
  }
}
