import { readFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import type { Logger } from "./logger";

/** the container's memory limit (cgroup v2, then v1), if the process runs under one */
export const containerMemoryLimit = (read: (path: string) => string = (p) => readFileSync(p, "utf8")): number | undefined => {
  for (const path of ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]) {
    try {
      const n = Number(read(path).trim());
      // "max" (no limit) is NaN; v1 reports a huge number for none
      if (Number.isFinite(n) && n > 0 && n < 2 ** 52) return n;
    } catch {
      // not there: next
    }
  }
  return undefined;
};

/**
 * A host under memory pressure stops taking connections (orphaned ones, new starts) before the kernel kills
 * it; the ones it holds go on. Pressure: RSS over `maxRssBytes` (by default 85 % of the container's limit)
 * or the V8 heap over `heapRatio` (85 %) of its limit. Checked when a connection would be taken.
 */
export const createMemoryGuard = (opts: {
  maxRssBytes?: number;
  heapRatio?: number;
  logger?: Logger;
  usage?: () => { rss: number; heapUsed: number };
  heapLimit?: number;
}) => {
  const usage = opts.usage ?? (() => process.memoryUsage());
  const heapLimit = opts.heapLimit ?? getHeapStatistics().heap_size_limit;
  const heapRatio = opts.heapRatio ?? 0.85;
  const limit = containerMemoryLimit();
  const maxRss = opts.maxRssBytes ?? (limit ? Math.floor(limit * 0.85) : undefined);
  let pressed = false;
  return {
    canTakeConnections(): boolean {
      const u = usage();
      const now = (maxRss !== undefined && u.rss > maxRss) || u.heapUsed > heapLimit * heapRatio;
      if (now !== pressed) {
        pressed = now;
        opts.logger?.[now ? "warn" : "info"](now ? "memory pressure: taking no more connections" : "memory pressure over: taking connections again", {
          rssMb: Math.round(u.rss / 2 ** 20),
          heapUsedMb: Math.round(u.heapUsed / 2 ** 20),
          maxRssMb: maxRss === undefined ? undefined : Math.round(maxRss / 2 ** 20),
        });
      }
      return !now;
    },
  };
};
export type MemoryGuard = ReturnType<typeof createMemoryGuard>;
