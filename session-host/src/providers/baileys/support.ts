import type * as BaileysModule from "baileys";
import type { Logger } from "../../platform/logger";

export type Baileys = typeof BaileysModule;
export type Socket = ReturnType<Baileys["makeWASocket"]>;
export type WaVersion = [number, number, number];

/** Loaded on first use: hosts that only run the simulator never load Baileys. */
let baileysModule: Promise<Baileys> | undefined;
export const importBaileys = () => (baileysModule ??= import("baileys"));

export const userOf = (jid: string | undefined) => (jid ?? "").split("@")[0]?.split(":")[0] ?? "";
/** status updates, broadcast lists and channels: never decrypted nor stored */
export const ignoredJid = (jid: string | undefined) => !!jid && (jid === "status@broadcast" || jid.endsWith("@broadcast") || jid.endsWith("@newsletter"));

/** A small in-memory cache with expiry (Baileys' CacheStore shape). */
export const ttlCache = (ttlMs: number, max = 10_000) => {
  const items = new Map<string, { v: unknown; until: number }>();
  return {
    get<T>(key: string): T | undefined {
      const it = items.get(key);
      if (!it) return undefined;
      if (it.until < Date.now()) {
        items.delete(key);
        return undefined;
      }
      return it.v as T;
    },
    set<T>(key: string, v: T) {
      items.delete(key);
      items.set(key, { v, until: Date.now() + ttlMs });
      if (items.size > max) items.delete(items.keys().next().value as string);
    },
    del(key: string) {
      items.delete(key);
    },
    flushAll() {
      items.clear();
    },
  };
};
export type TtlCache = ReturnType<typeof ttlCache>;

/** A token bucket: `take` resolves when a token is free. */
export const createPacer = (opts: { perMinute: number; burst: number; now?: () => number; sleep?: (ms: number) => Promise<void> }) => {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const interval = 60_000 / opts.perMinute;
  let tokens = opts.burst;
  let at = now();
  let chain: Promise<void> = Promise.resolve();
  const refill = () => {
    const t = now();
    tokens = Math.min(opts.burst, tokens + (t - at) / interval);
    at = t;
  };
  return {
    take(): Promise<void> {
      const turn = chain.then(async () => {
        refill();
        if (tokens < 1) {
          await sleep(Math.ceil((1 - tokens) * interval));
          refill();
        }
        tokens -= 1;
      });
      chain = turn.catch(() => undefined);
      return turn;
    },
  };
};

/**
 * The WhatsApp Web version every socket of this process uses: looked up at start (bundled one as fallback when
 * the lookup fails or hangs), and again after WhatsApp refused it (405, `forget`).
 */
export const createVersionLookup = (timeoutMs = 5_000) => {
  let version: Promise<WaVersion> | undefined;
  return {
    current: (b: Baileys, log: Logger): Promise<WaVersion> =>
      (version ??= (async () => {
        const bundled = b.DEFAULT_CONNECTION_CONFIG.version as WaVersion;
        try {
          const found = await Promise.race([
            b.fetchLatestWaWebVersion({ signal: AbortSignal.timeout(timeoutMs) }),
            new Promise<never>((_, reject) => setTimeout(() => reject(new Error("version lookup timed out")), timeoutMs + 100).unref()),
          ]);
          if (found.isLatest && Array.isArray(found.version)) {
            log.info("WhatsApp Web version", { version: found.version.join("."), source: "web.whatsapp.com" });
            return found.version as WaVersion;
          }
          log.warn("WhatsApp Web version not found: using the bundled one", { version: bundled.join("."), err: String((found as { error?: unknown }).error ?? "") });
        } catch (err) {
          log.warn("WhatsApp Web version lookup failed: using the bundled one", { version: bundled.join("."), err: String(err) });
        }
        return bundled;
      })()),
    forget() {
      version = undefined;
    },
  };
};
