import { afterEach, describe, expect, it, vi } from "vitest";
import { addEarlyRead, afterWork, forgetMemoized, MEMO_MAX_AGE_MS, memoized, runUnitOfWork, seedMemoized, startEarlyReads } from "./unit-of-work";

describe("unit of work", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads a memoised key once inside a unit of work, every time outside one", async () => {
    let reads = 0;
    const load = () => memoized("k", async () => ++reads);
    expect([await load(), await load()]).toEqual([1, 2]);
    await runUnitOfWork(async () => {
      expect([await load(), await load(), await load()]).toEqual([3, 3, 3]);
    });
    // another unit of work reads again (nothing outlives the work)
    await runUnitOfWork(async () => {
      expect(await load()).toBe(4);
    });
  });

  it("keeps concurrent units of work apart", async () => {
    let reads = 0;
    const seen = await Promise.all([1, 2, 3].map(() => runUnitOfWork(async () => [await memoized("k", async () => ++reads), await memoized("k", async () => ++reads)])));
    expect(seen.map(([a, b]) => a === b)).toEqual([true, true, true]);
    expect(reads).toBe(3);
  });

  it("reads again after its own write and after MEMO_MAX_AGE_MS", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    let reads = 0;
    await runUnitOfWork(async () => {
      expect(await memoized("k", async () => ++reads)).toBe(1);
      forgetMemoized("k");
      expect(await memoized("k", async () => ++reads)).toBe(2);
      vi.setSystemTime(1_000_000 + MEMO_MAX_AGE_MS);
      expect(await memoized("k", async () => ++reads)).toBe(2);
      vi.setSystemTime(1_000_000 + MEMO_MAX_AGE_MS + 1);
      expect(await memoized("k", async () => ++reads)).toBe(3);
    });
  });

  it("answers from a seeded read while it is at most MEMO_MAX_AGE_MS old counted from when it was read, never over its own write", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    let reads = 0;
    const load = () => memoized("q", async () => `read ${++reads}`);
    await runUnitOfWork(async () => {
      // read 400 ms ago by a list (docs/adr/0058): used until 1 s after that read, not after the seed
      seedMemoized("q", "listed", 1_000_000 - 400);
      expect(await load()).toBe("listed");
      vi.setSystemTime(1_000_000 - 400 + MEMO_MAX_AGE_MS + 1);
      expect(await load()).toBe("read 1");
      // an older list does not replace a newer read; one already too old is ignored
      seedMemoized("q", "older list", Date.now() - 10);
      expect(await load()).toBe("read 1");
      seedMemoized("other", "stale", Date.now() - MEMO_MAX_AGE_MS - 1);
      expect(await memoized("other", async () => "fresh")).toBe("fresh");
      // after the unit of work's own write of the key, a list read before it never answers
      forgetMemoized("q");
      seedMemoized("q", "list read before the write", Date.now());
      expect(await load()).toBe("read 2");
    });
    // outside a unit of work nothing is seeded
    seedMemoized("q", "listed", Date.now());
    expect(await load()).toBe("read 3");
  });

  it("starts early reads once, where the work starts them; outside a unit of work they are dropped", async () => {
    const started: string[] = [];
    await runUnitOfWork(async () => {
      addEarlyRead(() => started.push("a"));
      addEarlyRead(() => {
        throw new Error("an early read that fails to start");
      });
      addEarlyRead(() => started.push("b"));
      expect(started).toEqual([]);
      startEarlyReads();
      startEarlyReads();
    });
    expect(started).toEqual(["a", "b"]);
    addEarlyRead(() => started.push("outside"));
    startEarlyReads();
    expect(started).toEqual(["a", "b"]);
  });

  it("does not keep a failed read", async () => {
    let reads = 0;
    await runUnitOfWork(async () => {
      await expect(memoized("k", async () => Promise.reject(new Error(`read ${++reads}`)))).rejects.toThrow("read 1");
      expect(await memoized("k", async () => ++reads)).toBe(2);
    });
  });

  it("runs deferred work at the end, in order, after a failure too, each failure its own", async () => {
    const done: string[] = [];
    await runUnitOfWork(async () => {
      await afterWork(async () => done.push("a"));
      await afterWork(async () => {
        throw new Error("b fails");
      });
      await afterWork(async () => {
        done.push("c");
        await afterWork(async () => done.push("d"));
      });
      done.push("work");
    });
    expect(done).toEqual(["work", "a", "c", "d"]);

    const after: string[] = [];
    await expect(
      runUnitOfWork(async () => {
        await afterWork(async () => after.push("index"));
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
    expect(after).toEqual(["index"]);

    // outside a unit of work: at once
    const now: string[] = [];
    await afterWork(async () => now.push("x"));
    expect(now).toEqual(["x"]);
  });
});
