import { describe, expect, it } from "vitest";
import { createKeyedTurns, TurnTimeout } from "./keyed-turns";

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe("keyed turns", () => {
  it("runs one at a time per key, in arrival order; other keys run beside", async () => {
    const turns = createKeyedTurns({ maxWaitMs: 5_000 });
    const log: string[] = [];
    const job = (key: string, name: string, ms: number) =>
      turns.run(key, async () => {
        log.push(`start ${name}`);
        await tick(ms);
        log.push(`end ${name}`);
        return name;
      });
    const out = await Promise.all([job("a", "a1", 20), job("a", "a2", 1), job("b", "b1", 1), job("a", "a3", 1)]);
    expect(out).toEqual(["a1", "a2", "b1", "a3"]);
    expect(log.filter((l) => l.endsWith("a1") || l.endsWith("a2") || l.endsWith("a3"))).toEqual(["start a1", "end a1", "start a2", "end a2", "start a3", "end a3"]);
    expect(log.indexOf("end b1")).toBeLessThan(log.indexOf("end a1"));
    expect(turns.size).toBe(0);
  });

  it("a failure passes the turn on; a caller that waits too long leaves the line and the ones behind still wait their turn", async () => {
    const turns = createKeyedTurns({ maxWaitMs: 30 });
    let running = 0;
    let most = 0;
    const work = (ms: number, fail = false) => async () => {
      running++;
      most = Math.max(most, running);
      await tick(ms);
      running--;
      if (fail) throw new Error("boom");
      return ms;
    };
    const results = await Promise.allSettled([turns.run("k", work(60)), turns.run("k", work(1)), turns.run("k", work(1, true))]);
    expect(results[0]).toMatchObject({ status: "fulfilled", value: 60 });
    expect(results[1]).toMatchObject({ status: "rejected", reason: expect.any(TurnTimeout) });
    expect(results[2]).toMatchObject({ status: "rejected", reason: expect.any(TurnTimeout) });
    expect(most).toBe(1);
    await expect(turns.run("k", work(1, true))).rejects.toThrow("boom");
    await expect(turns.run("k", work(1))).resolves.toBe(1);
  });
});
