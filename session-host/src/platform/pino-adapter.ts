import type { LogFields, Logger } from "./logger";

type Level = "trace" | "debug" | "info" | "warn" | "error" | "fatal";
const RANK: Record<Level | "silent", number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, fatal: 5, silent: 9 };

/** The logger shape Baileys calls (pino's: `log.info(obj, msg)` or `log.info(msg)`, `child`, `level`). */
export type PinoLike = {
  level: string;
  child(bindings: Record<string, unknown>): PinoLike;
  trace(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
  fatal(obj: unknown, msg?: string): void;
};

/** Values a JSON log line can hold: errors as their message and stack head, binary as its length. */
const plain = (v: unknown, depth = 0): unknown => {
  if (v instanceof Error) return { name: v.name, message: v.message, ...(v.stack ? { stack: v.stack.split("\n").slice(0, 4).join("\n") } : {}) };
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return `<${v.length} bytes>`;
  if (typeof v === "bigint") return v.toString();
  if (!v || typeof v !== "object" || depth > 3) return v;
  if (Array.isArray(v)) return v.slice(0, 20).map((x) => plain(x, depth + 1));
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, plain(x, depth + 1)]));
};

/**
 * Baileys' logger through ours: one JSON line shape for the whole host, Baileys' lines tagged `lib: baileys`.
 * `level` (info by default) filters Baileys' own chatter; trace maps to debug, fatal to error.
 */
export const pinoAdapter = (logger: Logger, level: Level | "silent" = "info"): PinoLike => {
  const make = (log: Logger): PinoLike => {
    const emit = (l: Level) => (obj: unknown, msg?: string) => {
      if (RANK[l] < RANK[level]) return;
      const [text, fields]: [string, LogFields] =
        typeof obj === "string" ? [obj, {}] : [msg ?? "", obj && typeof obj === "object" ? (plain(obj) as LogFields) : { value: plain(obj) }];
      const to = l === "trace" || l === "debug" ? "debug" : l === "fatal" ? "error" : l;
      log[to](text, { lib: "baileys", ...fields });
    };
    return {
      level,
      child: (bindings) => make(log.child(plain(bindings) as LogFields)),
      trace: emit("trace"),
      debug: emit("debug"),
      info: emit("info"),
      warn: emit("warn"),
      error: emit("error"),
      fatal: emit("fatal"),
    };
  };
  return make(logger);
};
