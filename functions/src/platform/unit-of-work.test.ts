import { afterEach, describe, expect, it, vi } from "vitest";
import { afterWork, forgetMemoized, MEMO_MAX_AGE_MS, memoized, runUnitOfWork } from "./unit-of-work";

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
