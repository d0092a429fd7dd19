import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type BrowserContext, type CDPSession, type Page } from "playwright-core";
import { REPO_ROOT, startPlatform } from "../infra/local/src/platform";
import { seedCompany, signIn } from "./inbox-web.bench";

/**
 * Where the first card's time goes (issue 15 item 4, ADR 0047): `npx tsx bench/web-first-screen-trace.ts` starts the
 * local platform with BENCH_WEB_TICKETS (default 1,000) open tickets, signs in, then for every line written to
 * `<dir>/go` (default dir /tmp/web-first-screen-trace; a line is `<label> [runs] [profile] [traces=N]`) loads /tickets `runs` times
 * (default 7) as web-first-screen.bench.ts does — a new page with the session from the refresh cookie, cache warm —
 * and writes `<dir>/<label>.json`: each run's first card (a MutationObserver's performance.now(), no polling) and,
 * for N extra runs (default 1) under the Chrome trace (DevTools' timeline, V8 compile/execute), the main thread's CPU
 * time up to the first card (each task's thread time: unlike wall time it does not grow when other processes load the
 * machine, so builds can be compared while it is shared) and its busy time by kind, the idle gaps, every script's
 * fetch, compile and evaluation, and the app's user-timing marks. `profile` adds a sampled CPU profile of one more run
 * (`<label>.cpuprofile` opens in DevTools). `<label>.trace.json` is the first traced run's trace (open it in DevTools' Performance panel). The web app is served from web/dist
 * as it is on disk, so rebuild between labels to compare builds on one seeded platform. `quit` stops it.
 */
const TICKETS = Number(process.env.BENCH_WEB_TICKETS ?? 1_000);
const DIR = process.env.BENCH_TRACE_DIR ?? "/tmp/web-first-screen-trace";
const DIST = join(REPO_ROOT, "web", "dist");

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
};

/** Records when the first ticket card is in the DOM (page time), before any of the page's scripts run. */
const FIRST_CARD_PROBE = String.raw`(() => {
  const seen = () => {
    if (window.__firstCard === undefined && document.querySelector('[data-testid="ticket-card"]')) {
      window.__firstCard = performance.now();
      performance.mark("probe:first-card");
      obs.disconnect();
    }
  };
  window.__fetches = [];
  const realFetch = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === "string" ? input : input.url;
    if (String(url).includes("/api/")) window.__fetches.push({ url: String(url), at: Math.round(performance.now()) });
    return realFetch.apply(this, arguments);
  };
  const obs = new MutationObserver(seen);
  obs.observe(document, { childList: true, subtree: true });
})();`;

/** `tdur`: the thread's CPU time inside the event (µs), which — unlike `dur` — does not grow when the machine is loaded. */
type TraceEvent = { name: string; cat: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: Record<string, any> };

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "v8",
  "disabled-by-default-v8.compile",
  "blink.user_timing",
  "loading",
  "toplevel",
  "disabled-by-default-v8.cpu_profiler",
].join(",");

let fetches: unknown[] = [];
/** One load under the trace: its events and the first card's time in the page (ms from its time origin). */
const traceRun = async (page: Page): Promise<{ events: TraceEvent[]; firstCardPageMs: number }> => {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
  await cdp.send("Tracing.start", { categories: CATEGORIES, transferMode: "ReportEvents" });
  await page.goto("/tickets");
  await page.waitForFunction(() => (window as unknown as { __firstCard?: number }).__firstCard !== undefined, undefined, { timeout: 60_000, polling: 50 });
  await page.waitForTimeout(300);
  fetches = await page.evaluate(() => (window as unknown as { __fetches: unknown[] }).__fetches);
  const firstCardPageMs = await page.evaluate(() => (window as unknown as { __firstCard: number }).__firstCard);
  await cdp.send("Tracing.end");
  await done;
  await cdp.detach();
  return { events, firstCardPageMs };
};

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };

/** A sampled CPU profile of one load up to the first card: self time by script and the heaviest functions (self and inclusive). */
const profileRun = async (page: Page) => {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  await page.goto("/tickets");
  await page.waitForFunction(() => (window as unknown as { __firstCard?: number }).__firstCard !== undefined, undefined, { timeout: 60_000, polling: 50 });
  const { profile } = (await cdp.send("Profiler.stop")) as { profile: { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] } };
  await cdp.detach();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const short = (url: string) => (url ? url.replace(/^https?:\/\/[^/]+/, "").replace(/^\/assets\//, "") : "(native)");
  const selfByUrl = new Map<string, number>();
  const selfByFn = new Map<string, number>();
  const inclByFn = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    total += dt;
    const node = byId.get(id)!;
    const f = node.callFrame;
    const key = `${f.functionName || "(anon)"} ${short(f.url)}:${f.lineNumber + 1}`;
    selfByUrl.set(short(f.url) || f.functionName, (selfByUrl.get(short(f.url) || f.functionName) ?? 0) + dt);
    selfByFn.set(key, (selfByFn.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      const k = `${cf.functionName || "(anon)"} ${short(cf.url)}:${cf.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclByFn.set(k, (inclByFn.get(k) ?? 0) + dt);
    }
  });
  const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${Math.round(v)} ms ${k}`);
  return { raw: profile, sampledMs: Math.round(total), selfByScript: top(selfByUrl, 30), selfByFunction: top(selfByFn, 40), inclusive: top(inclByFn, 80) };
};

const kindOf = (name: string): string | null => {
  if (name === "v8.compile" || name === "v8.compileModule" || name === "V8.CompileCode" || name === "v8.parseOnBackground" || name === "V8.CompileLazy") return "compile";
  if (name === "EvaluateScript" || name === "v8.evaluateModule" || name === "FunctionCall" || name === "v8.run" || name === "RunMicrotasks" || name === "TimerFire" || name === "EventDispatch" || name === "FireAnimationFrame") return "script";
  if (name === "UpdateLayoutTree" || name === "ScheduleStyleRecalculation" || name === "ParseAuthorStyleSheet" || name === "InvalidateLayout") return "style";
  if (name === "Layout") return "layout";
  if (name === "Paint" || name === "PrePaint" || name === "Layerize" || name === "UpdateLayer" || name === "CompositeLayers" || name === "Commit") return "paint";
  if (name.includes("GC") || name === "MinorGC" || name === "MajorGC") return "gc";
  if (name === "ParseHTML") return "html";
  return null;
};

/**
 * Main-thread breakdown up to the first card. Time 0 is the page's time origin (the navigation's start): the probe's
 * mark minus the time the page read for it (the trace's own navigationStart is missing when the machine is loaded).
 */
const analyse = (events: TraceEvent[], firstCardPageMs: number) => {
  const mainThread = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain" && events.some((x) => x.pid === e.pid && x.name === "probe:first-card"));
  if (!mainThread) return { error: "no renderer main thread with the probe's mark" };
  const { pid, tid } = mainThread;
  const main = events.filter((e) => e.pid === pid && e.tid === tid);
  const firstCard = events.find((e) => e.name === "probe:first-card" && e.pid === pid)!.ts;
  const t0 = firstCard - firstCardPageMs * 1000;
  const ms = (ts: number) => Math.round((ts - t0) / 100) / 10;
  const end = firstCard;

  // top-level tasks on the main thread (a task event nests in another of the same task: keep the outermost): busy vs idle
  const tasks: TraceEvent[] = [];
  for (const t of main.filter((e) => e.ph === "X" && (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && e.ts < end && e.ts + (e.dur ?? 0) > t0).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))) {
    const last = tasks[tasks.length - 1];
    if (!last || t.ts >= last.ts + (last.dur ?? 0)) tasks.push(t);
  }
  let busy = 0;
  for (const t of tasks) busy += Math.min(end, t.ts + (t.dur ?? 0)) - Math.max(t0, t.ts);
  // the main thread's CPU time up to the first card (the tasks' thread time): the work, whatever the machine's load
  const cpu = tasks.reduce((sum, t) => sum + (t.tdur ?? 0), 0);
  // exclusive time per kind: walk complete events nested in tasks, attribute self time to the innermost known kind
  // (wall time, and CPU time from `tdur`)
  const complete = main.filter((e) => e.ph === "X" && e.ts < end && e.ts >= t0).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const selfCpu = new Map<string, number>();
  const stack: { e: TraceEvent; kind: string; child: number; childCpu: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length && stack[stack.length - 1]!.e.ts + (stack[stack.length - 1]!.e.dur ?? 0) <= upTo) {
      const top = stack.pop()!;
      self.set(top.kind, (self.get(top.kind) ?? 0) + (top.e.dur ?? 0) - top.child);
      if (top.e.tdur !== undefined) selfCpu.set(top.kind, (selfCpu.get(top.kind) ?? 0) + Math.max(0, top.e.tdur - top.childCpu));
      if (stack.length) {
        stack[stack.length - 1]!.child += top.e.dur ?? 0;
        stack[stack.length - 1]!.childCpu += top.e.tdur ?? 0;
      }
    }
  };
  for (const e of complete) {
    close(e.ts);
    const parentKind = stack.length ? stack[stack.length - 1]!.kind : "other";
    const kind = kindOf(e.name) ?? (parentKind === "task" ? "other" : parentKind);
    stack.push({ e, kind: e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask" ? "other" : kind, child: 0, childCpu: 0 });
  }
  close(Number.MAX_SAFE_INTEGER);
  const sortedMs = (m: Map<string, number>) => Object.fromEntries([...m.entries()].map(([k, v]) => [k, Math.round(v / 1000)]).sort((a, b) => (b[1] as number) - (a[1] as number)));
  const byKind = sortedMs(self);
  const cpuByKind = sortedMs(selfCpu);

  // idle gaps > 20 ms on the main thread
  const gaps: { fromMs: number; toMs: number }[] = [];
  let cursor = t0;
  for (const t of tasks.sort((a, b) => a.ts - b.ts)) {
    if (t.ts - cursor > 20_000) gaps.push({ fromMs: ms(cursor), toMs: ms(t.ts) });
    cursor = Math.max(cursor, t.ts + (t.dur ?? 0));
  }
  if (end - cursor > 20_000) gaps.push({ fromMs: ms(cursor), toMs: ms(end) });

  // scripts: fetch (send → finish), compile and evaluate per URL
  const byRequest = new Map<string, { url: string; sendMs?: number; responseMs?: number; finishMs?: number }>();
  for (const e of events.filter((x) => x.pid === pid)) {
    const d = e.args?.data;
    if (!d?.requestId) continue;
    const r = byRequest.get(d.requestId) ?? { url: "" };
    if (e.name === "ResourceSendRequest") {
      r.url = d.url;
      r.sendMs = ms(e.ts);
    }
    if (e.name === "ResourceReceiveResponse") r.responseMs = ms(e.ts);
    if (e.name === "ResourceFinish") r.finishMs = ms(d.finishTime ? d.finishTime * 1e6 : e.ts);
    byRequest.set(d.requestId, r);
  }
  const scripts = new Map<string, { compileMs: number; evalMs: number; firstRunMs?: number }>();
  const short = (url: string) => (url ? new URL(url).pathname.replace(/^\/assets\//, "") : "?");
  for (const e of main.filter((x) => x.ph === "X")) {
    const url: string | undefined = e.args?.data?.url ?? e.args?.fileName ?? e.args?.data?.fileName;
    if (!url || !url.startsWith("http")) continue;
    const k = short(url);
    const s = scripts.get(k) ?? { compileMs: 0, evalMs: 0 };
    if (kindOf(e.name) === "compile") s.compileMs += (e.dur ?? 0) / 1000;
    if (e.name === "EvaluateScript" || e.name === "v8.evaluateModule") {
      s.evalMs += (e.dur ?? 0) / 1000;
      s.firstRunMs ??= ms(e.ts);
    }
    scripts.set(k, s);
  }
  const requests = [...byRequest.values()]
    .filter((r) => r.url && (r.url.includes("/api/") || r.url.endsWith(".js") || r.url.endsWith("/tickets") || r.url.endsWith(".json")))
    .sort((a, b) => (a.sendMs ?? 0) - (b.sendMs ?? 0))
    .map((r) => {
      const s = scripts.get(short(r.url));
      return { path: short(r.url) + (r.url.includes("?") ? new URL(r.url).search : ""), send: r.sendMs, finish: r.finishMs, compile: s ? Math.round(s.compileMs) : undefined, evalAt: s?.firstRunMs, eval: s ? Math.round(s.evalMs) : undefined };
    });
  const marks = events
    .filter((e) => e.pid === pid && (e.cat.includes("blink.user_timing") || e.name === "firstContentfulPaint" || e.name === "firstPaint") && e.ph !== "e")
    .map((e) => ({ name: e.name, atMs: ms(e.ts) }))
    .sort((a, b) => a.atMs - b.atMs);
  const longTasks = tasks
    .filter((t) => (t.dur ?? 0) > 30_000)
    .map((t) => {
      const inner = main.filter((e) => e.ts >= t.ts && e.ts < t.ts + (t.dur ?? 0) && (e.name === "EvaluateScript" || e.name === "v8.evaluateModule" || e.name === "FunctionCall" || e.name === "RunMicrotasks" || e.name === "TimerFire" || e.name === "Layout" || e.name === "UpdateLayoutTree"));
      const top = inner.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
      return { atMs: ms(t.ts), durMs: Math.round((t.dur ?? 0) / 1000), cpuMs: Math.round((t.tdur ?? 0) / 1000), biggest: top ? `${top.name} ${Math.round((top.dur ?? 0) / 1000)} ms ${top.args?.data?.url ? short(top.args.data.url) : (top.args?.data?.functionName ?? "")}` : "" };
    });
  return { firstCardMs: ms(firstCard), mainBusyMs: Math.round(busy / 1000), mainCpuMs: Math.round(cpu / 1000), byKindSelfMs: byKind, cpuByKindSelfMs: cpuByKind, idleGaps: gaps, marks, longTasks, requests };
};

const main = async () => {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("build the web app first: npm run build -w web");
  mkdirSync(DIR, { recursive: true });
  const platform = await startPlatform({ logLevel: "warn", env: { BCRYPT_ROUNDS: "4" } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  const tenant = await seedCompany(platform, { tickets: TICKETS, statusOf: () => "open" });
  const agent: BrowserContext = await browser.newContext({ baseURL: platform.url, viewport: { width: 1280, height: 800 }, locale: "pt-BR" });
  await agent.addInitScript(FIRST_CARD_PROBE);
  await signIn(await agent.newPage(), tenant.admin.email, tenant.password);
  console.log(`ready: ${platform.url}; write "<label> [runs]" to ${join(DIR, "go")}`);
  for (;;) {
    const go = join(DIR, "go");
    if (!existsSync(go)) {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    const line = readFileSync(go, "utf8").trim();
    rmSync(go);
    if (line === "quit") break;
    const [label = "run", runsText = "7", ...modes] = line.split(/\s+/);
    const mode = modes.join(" ");
    const runs = Number(runsText);
    const times: number[] = [];
    const probe: number[] = [];
    for (let run = 0; run < runs; run++) {
      const tab = await agent.newPage();
      const started = performance.now();
      await tab.goto("/tickets");
      await tab.getByTestId("ticket-card").first().waitFor({ timeout: 60_000 });
      times.push(Math.round(performance.now() - started));
      probe.push(Math.round((await tab.evaluate(() => (window as unknown as { __firstCard: number }).__firstCard)) as number));
      await tab.close();
    }
    if (mode.includes("profile")) {
      const tab = await agent.newPage();
      const profile = await profileRun(tab);
      await tab.close();
      writeFileSync(join(DIR, `${label}.cpuprofile`), JSON.stringify(profile.raw));
      writeFileSync(join(DIR, `${label}.profile.json`), JSON.stringify({ ...profile, raw: undefined }, null, 2));
    }
    // `traces=N` (default 1): N runs under the trace; the first one's trace is kept, each one's figures listed
    const traces = Number(/traces=(\d+)/.exec(mode)?.[1] ?? 1);
    const analysed: ReturnType<typeof analyse>[] = [];
    for (let run = 0; run < traces; run++) {
      const tab = await agent.newPage();
      const { events, firstCardPageMs } = await traceRun(tab);
      await tab.close();
      if (run === 0) writeFileSync(join(DIR, `${label}.trace.json`), JSON.stringify({ traceEvents: events }));
      analysed.push(analyse(events, firstCardPageMs));
    }
    const traced = analysed.filter((a): a is Extract<typeof a, { mainCpuMs: number }> => "mainCpuMs" in a);
    const result = {
      label,
      at: new Date().toISOString(),
      runs: times,
      median: median(times),
      probeRuns: probe,
      probeMedian: median(probe),
      // the main thread's CPU time up to the first card in each traced run, and its median: the load-independent figure
      tracedMainCpuMs: traced.map((a) => a.mainCpuMs),
      tracedMainCpuMedian: median(traced.map((a) => a.mainCpuMs)),
      tracedFirstCardMs: traced.map((a) => a.firstCardMs),
      tracedCpuByKindMs: traced.map((a) => a.cpuByKindSelfMs),
      trace: analysed[0],
      fetches,
    };
    writeFileSync(join(DIR, `${label}.json`), JSON.stringify(result, null, 2));
    console.log(`${label}: median ${result.median} ms (probe ${result.probeMedian} ms) runs ${times.join(" ")}; main-thread CPU to the first card ${result.tracedMainCpuMs.join(" ")} ms (median ${result.tracedMainCpuMedian})`);
  }
  await agent.close();
  await browser.close();
  await platform.stop();
  process.exit(0);
};

void main();
