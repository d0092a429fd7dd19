import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { LogRecord, QueuesStore } from "./queues.store";

/**
 * Where the queues' changes go. `append(records, true)` resolves once the records are on disk (fdatasync);
 * records appended while a write is in progress go out together with the next one, so concurrent senders
 * share one fsync (group commit). `append(records, false)` (receive counts) rides along with the next write.
 */
export type Journal = {
  append(records: LogRecord[], durable: boolean): Promise<void>;
  close(): Promise<void>;
  stats: { writes: number; syncs: number; compactions: number; bytes: number };
};

export const memoryJournal = (): Journal => ({
  append: async () => undefined,
  close: async () => undefined,
  stats: { writes: 0, syncs: 0, compactions: 0, bytes: 0 },
});

const LOG_FILE = "queues.log";

const encode = (records: LogRecord[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");

/** Writes `text` as the whole log, atomically: a temporary file, fsync, rename, fsync of the folder. */
const replaceLog = (dir: string, text: string) => {
  const tmp = join(dir, `${LOG_FILE}.tmp`);
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, LOG_FILE));
  const dirFd = openSync(dir, "r");
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
};

/**
 * An append-only log under `dir`: replayed into `store` at start (a torn last line from a crash is ignored),
 * then compacted (rewritten as the live state), and compacted again whenever it has grown past
 * `compactBytes` and to more than twice its size after the last compaction.
 */
export const openFileJournal = async (dir: string, store: QueuesStore, opts: { compactBytes?: number } = {}): Promise<Journal> => {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOG_FILE);
  const compactBytes = opts.compactBytes ?? 16 * 1024 * 1024;
  if (existsSync(file)) {
    const lines = readFileSync(file, "utf8").split("\n");
    for (const line of lines) {
      if (!line) continue;
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        continue; // a record cut short by a crash was never acknowledged
      }
      store.apply(record);
    }
  }
  const stats = { writes: 0, syncs: 0, compactions: 0, bytes: 0 };
  const compact = () => {
    const text = encode(store.snapshot());
    replaceLog(dir, text);
    stats.compactions++;
    return Buffer.byteLength(text);
  };
  let size = compact();
  let sizeAfterCompaction = size;
  let fh: FileHandle | null = await open(file, "a");

  let buffer: string[] = [];
  let waiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  let flushing: Promise<void> | null = null;
  let closed = false;

  const flushLoop = async () => {
    while (buffer.length > 0 && fh) {
      const chunk = buffer.join("");
      buffer = [];
      const batch = waiters;
      waiters = [];
      try {
        await fh.write(chunk);
        stats.writes++;
        if (batch.length > 0) {
          await fh.datasync();
          stats.syncs++;
        }
        size += Buffer.byteLength(chunk);
        stats.bytes += Buffer.byteLength(chunk);
        batch.forEach((w) => w.resolve());
      } catch (err) {
        batch.forEach((w) => w.reject(err));
      }
      if (size > compactBytes && size > 2 * sizeAfterCompaction) {
        // The state in memory already includes what is still buffered; replaying those records again over the
        // snapshot changes nothing (sends of present ids are skipped, deletes of absent ones are no-ops).
        await fh.close();
        size = sizeAfterCompaction = compact();
        fh = await open(file, "a");
      }
    }
  };
  const schedule = () => {
    if (flushing) return;
    flushing = flushLoop().finally(() => {
      flushing = null;
      if (buffer.length > 0 && !closed) schedule();
    });
  };

  return {
    stats,
    append(records, durable) {
      if (records.length === 0) return Promise.resolve();
      if (closed) return Promise.reject(new Error("queue log closed"));
      buffer.push(encode(records));
      const done = durable ? new Promise<void>((resolve, reject) => waiters.push({ resolve, reject })) : Promise.resolve();
      schedule();
      return done;
    },
    async close() {
      closed = true;
      while (flushing) await flushing;
      const last = fh;
      fh = null;
      await last?.close();
    },
  };
};
