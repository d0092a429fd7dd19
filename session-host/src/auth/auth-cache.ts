import { LRUCache } from "lru-cache";

/** Rough bytes a decoded auth value holds in memory (buffers, strings, object overhead). */
export const approxSize = (value: unknown, depth = 0): number => {
  if (value === null || value === undefined) return 8;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return value.byteLength + 32;
  if (typeof value === "string") return value.length * 2 + 16;
  if (typeof value !== "object") return 8;
  if (depth > 8) return 64;
  let total = 32;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) total += k.length * 2 + approxSize(v, depth + 1);
  return total;
};

/**
 * The auth read cache of a host: one LRU for all its connections, bounded by the bytes its values hold (not by
 * a count: one app-state-sync-version can weigh more than a thousand pre-keys). Only found values are kept —
 * a miss is asked of the table again next time.
 */
export const createAuthCache = (opts: { maxBytes: number }) =>
  new LRUCache<string, { v: unknown }>({ maxSize: opts.maxBytes, sizeCalculation: (box, k) => Math.max(1, approxSize(box.v) + k.length * 2) });
export type AuthCache = ReturnType<typeof createAuthCache>;

/** the cache every connection of this process shares unless told otherwise (64 MiB) */
let shared: AuthCache | undefined;
export const sharedAuthCache = () => (shared ??= createAuthCache({ maxBytes: 64 * 1024 * 1024 }));
