import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One unit of work (one inbound event from the session host, docs/adr/0039-inbound-message-unit-of-work.md):
 * - reads that the work repeats (the company's socket list, once per realtime event published) are made once and
 *   shared inside it (`memoized`), for at most MEMO_MAX_AGE_MS: never a per-instance cache, nothing outlives the
 *   work, and a long-running work reads again after a second (issue 15: nobody sees data staler than a second);
 * - follow-up writes nobody waits for (the search index of the messages it stored) run at its end (`afterWork`),
 *   in the order they were asked for, after every realtime frame of the work went out, and before the work counts
 *   as done (so the queue message is deleted only after them, as when they ran inline).
 * Outside a unit of work (an HTTP request, a job, a test calling a service) nothing is memoised and `afterWork`
 * runs the task at once.
 */
type Scope = { memo: Map<string, { at: number; value: Promise<unknown> }>; after: (() => Promise<unknown>)[]; early: (() => void)[]; written: Set<string> };

const storage = new AsyncLocalStorage<Scope>();

/** How long a memoised read is reused inside one unit of work (issue 15's staleness bound). */
export const MEMO_MAX_AGE_MS = 1000;

/** Runs `fn` as one unit of work; its deferred tasks run when it ends (even when it failed), in order, failures swallowed. */
export const runUnitOfWork = async <T>(fn: () => Promise<T>): Promise<T> => {
  const scope: Scope = { memo: new Map(), after: [], early: [], written: new Set() };
  try {
    return await storage.run(scope, fn);
  } finally {
    // one after the other, as they would have run inline (two index writes of one ticket never race); a deferred
    // task may defer more (it runs inside the scope): until none is left
    await storage.run(scope, async () => {
      for (let task = scope.after.shift(); task; task = scope.after.shift()) await task().catch(() => undefined);
    });
  }
};

/** Whether the caller runs inside a unit of work (a memoised read started now is found by later reads). */
export const inUnitOfWork = (): boolean => storage.getStore() !== undefined;

/** `load()` once per unit of work and key (reused for MEMO_MAX_AGE_MS); outside a unit of work, `load()` every time. */
export const memoized = <T>(key: string, load: () => Promise<T>): Promise<T> => {
  const scope = storage.getStore();
  if (!scope) return load();
  const hit = scope.memo.get(key);
  const now = Date.now();
  if (hit && now - hit.at <= MEMO_MAX_AGE_MS) return hit.value as Promise<T>;
  const value = load();
  scope.memo.set(key, { at: now, value });
  value.catch(() => {
    if (scope.memo.get(key)?.value === value) scope.memo.delete(key);
  });
  return value;
};

/** The unit of work changed what `key` read (its own write): the next `memoized` read loads again. */
export const forgetMemoized = (key: string): void => {
  const scope = storage.getStore();
  scope?.memo.delete(key);
  scope?.written.add(key);
};

/**
 * `value` was read at `readAt` (epoch ms) by another read of the unit of work (a list holding the item, docs/adr/0058):
 * a later `memoized(key)` uses it while it is at most MEMO_MAX_AGE_MS old, counted from `readAt`, not from now. Ignored
 * outside a unit of work, when it is already too old, when the memo holds a newer read, and for a key the unit of work
 * wrote (`forgetMemoized`): its own write is never hidden by an earlier read.
 */
export const seedMemoized = <T>(key: string, value: T, readAt: number): void => {
  const scope = storage.getStore();
  if (!scope || scope.written.has(key) || Date.now() - readAt > MEMO_MAX_AGE_MS) return;
  const hit = scope.memo.get(key);
  if (hit && hit.at >= readAt) return;
  scope.memo.set(key, { at: readAt, value: Promise.resolve(value) });
};

/** Runs `task` when the unit of work ends (at once outside one). The task handles its own failures. */
export const afterWork = async (task: () => Promise<unknown>): Promise<void> => {
  const scope = storage.getStore();
  if (!scope) {
    await task();
    return;
  }
  scope.after.push(task);
};

/**
 * Reads the unit of work will make later and that depend on nothing it writes (docs/adr/0058): `startEarlyReads`
 * starts them (once), where the work makes its first round trip, so they share it (a point read inside a
 * `coalescedReads` scope joins its BatchGetItem). Each is a memoised load, which the later read finds. Outside a unit
 * of work nothing is remembered (there is no memo to warm).
 */
export const addEarlyRead = (read: () => void): void => {
  storage.getStore()?.early.push(read);
};

/** Starts the unit of work's early reads (see `addEarlyRead`); a second call starts nothing. */
export const startEarlyReads = (): void => {
  const scope = storage.getStore();
  if (!scope) return;
  for (const read of scope.early.splice(0)) {
    try {
      read();
    } catch {
      // an early read is only a head start: its handler reads again
    }
  }
};
