type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type LogFields = Record<string, unknown>;
export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
};

/** Structured JSON lines (the same shape as the functions' logger). */
export const createLogger = (level: Level | "silent" = "info", base: LogFields = {}): Logger => {
  const emit = (l: Level, msg: string, fields?: LogFields) => {
    if (order[l] < order[level]) return;
    const line = JSON.stringify({ level: l, time: new Date().toISOString(), msg, ...base, ...fields });
    if (l === "error" || l === "warn") console.error(line);
    else console.log(line);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  };
};
