import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import type { Platform } from "../infra/local/src/platform";

/** The inbox bench's meters (bench/inbox.bench.ts): DynamoDB calls, CPU per request, the V8 profiler. */

/**
 * Counts the DynamoDB calls the platform makes (an observer on the app's client, docs/adr/0054): calls, items read and written,
 * and round trips in sequence (a call's depth is one more than the deepest call that had finished when it started).
 */
export const dynamoCounter = (platform: Platform) => {
  type Call = { depth: number; end: number | null };
  let calls: Call[] | null = null;
  let read = 0;
  let written = 0;
  /** the items' size as JSON (their attributes, not DynamoDB's wire format): what the calls carried back, compared between runs */
  let bytes = 0;
  const itemsRead = (out: Record<string, unknown>) => {
    if (typeof out.ScannedCount === "number") return out.ScannedCount;
    if ("Item" in out) return out.Item ? 1 : 0;
    if (out.Responses && typeof out.Responses === "object" && !Array.isArray(out.Responses))
      return Object.values(out.Responses as Record<string, unknown[]>).reduce((n, l) => n + l.length, 0);
    if (Array.isArray(out.Responses)) return out.Responses.length;
    return 0;
  };
  const itemsWritten = (name: string, input: Record<string, unknown>) => {
    if (name === "TransactWriteItems") return (input.TransactItems as unknown[]).length;
    if (name === "BatchWriteItem") return Object.values(input.RequestItems as Record<string, unknown[]>).reduce((n, l) => n + l.length, 0);
    return /^(Put|Update|Delete)Item$/.test(name) ? 1 : 0;
  };
  platform.container.db.doc.observe(({ operation: name, input }) => {
    if (!calls) return;
    const mine = calls;
    const call: Call = { depth: 1 + Math.max(0, ...mine.filter((c) => c.end !== null).map((c) => c.depth)), end: null };
    mine.push(call);
    written += itemsWritten(name, input);
    return {
      done: ({ output: o }) => {
        if (o) {
          read += itemsRead(o);
          bytes += JSON.stringify(o.Items ?? o.Item ?? o.Responses ?? "").length;
        }
        call.end = performance.now();
      },
    };
  });
  return {
    async measure(fn: () => Promise<unknown>) {
      calls = [];
      read = 0;
      written = 0;
      bytes = 0;
      const answer = await fn();
      const out = {
        calls: calls.length,
        roundTripsInSequence: Math.max(0, ...calls.map((c) => c.depth)),
        itemsRead: read,
        itemsWritten: written,
        itemBytesRead: bytes,
        ...(typeof answer === "number" ? { answerBytes: answer } : {}),
      };
      calls = null;
      return out;
    },
  };
};

/** CPU time of a process from /proc (Linux): user + system, milliseconds; null elsewhere. */
export const procCpuMs = (pid: number): number | null => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100)
  } catch {
    return null;
  }
};
/** DynamoDB Local's JVM: the child of infra/local/bin/java-tied (the process the platform started). */
export const jvmPid = (platform: Platform): number | null => {
  const wrapper = platform.dynamo.process.pid;
  if (!wrapper) return null;
  try {
    const children = readFileSync(`/proc/${wrapper}/task/${wrapper}/children`, "utf8").trim().split(/\s+/).map(Number);
    return children.find((c) => readFileSync(`/proc/${c}/comm`, "utf8").trim() === "java") ?? null;
  } catch {
    return null;
  }
};
/**
 * CPU spent per request (not wall time: the machine is shared): this process (the API and, in the same event loop,
 * the bench's clients) and DynamoDB Local's JVM, over a phase of `n` requests.
 */
export const cpuMeter = (platform: Platform) => {
  const jvm = jvmPid(platform);
  return async <T>(
    n: number,
    fn: () => Promise<T>,
  ): Promise<{ out: T; cpuMsPerRequest: { benchProcess: number; dynamoDbLocal: number | null }; nodeGc: { pauses: number; maxMs: number; totalMs: number } }> => {
    // the bench process's own collector pauses (a request waiting on one shows in the p99 as a JVM pause would)
    const gc: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => gc.push(...list.getEntries()));
    observer.observe({ entryTypes: ["gc"] });
    const node0 = process.cpuUsage();
    const jvm0 = jvm ? procCpuMs(jvm) : null;
    const out = await fn();
    const node = process.cpuUsage(node0);
    const jvm1 = jvm ? procCpuMs(jvm) : null;
    observer.disconnect();
    const r = (ms: number) => Math.round((ms / n) * 100) / 100;
    const one = (ms: number) => Math.round(ms * 10) / 10;
    return {
      out,
      cpuMsPerRequest: { benchProcess: r((node.user + node.system) / 1000), dynamoDbLocal: jvm0 !== null && jvm1 !== null ? r(jvm1 - jvm0) : null },
      nodeGc: { pauses: gc.length, maxMs: one(Math.max(0, ...gc.map((e) => e.duration))), totalMs: one(gc.reduce((t, e) => t + e.duration, 0)) },
    };
  };
};
/** Runs `fn` under the V8 profiler when BENCH_CPU_PROFILE names a folder; the profile goes to <folder>/<name>.cpuprofile. */
export const profiled = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
  if (!CPU_PROFILE_DIR) return fn();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    mkdirSync(CPU_PROFILE_DIR, { recursive: true });
    writeFileSync(join(CPU_PROFILE_DIR, `${name.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
};
