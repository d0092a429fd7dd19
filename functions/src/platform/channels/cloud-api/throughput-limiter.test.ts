import { describe, expect, it } from "vitest";
import { createMemoryGates } from "./throughput-limiter";

describe("Cloud API send pacing", () => {
  it("lets `perSecond` messages through per second on one number, spacing a burst evenly", async () => {
    const gates = createMemoryGates();
    const waits = [];
    for (let i = 0; i < 161; i++) waits.push(await gates.throughput("P1", 80, 1_000));
    expect(waits.slice(0, 3)).toEqual([0, 12.5, 25]);
    // message 81 starts one second after the first, message 161 two seconds after
    expect(waits[80]).toBe(1000);
    expect(waits[160]).toBe(2000);
    // another number has its own budget
    expect(await gates.throughput("P2", 80, 1_000)).toBe(0);
    // once time has passed, no wait
    expect(await gates.throughput("P1", 80, 10_000)).toBe(0);
  });

  it("spaces campaign messages to the same person 6 s apart, others are not held", async () => {
    const gates = createMemoryGates();
    expect(await gates.pair("P1", "5511", 0)).toBe(0);
    expect(await gates.pair("P1", "5511", 1_000)).toBe(5_000);
    expect(await gates.pair("P1", "5511", 1_000)).toBe(11_000);
    expect(await gates.pair("P1", "5522", 1_000)).toBe(0);
    expect(await gates.pair("P1", "5511", 60_000)).toBe(0);
  });

  it("a configured throughput changes the spacing", async () => {
    const gates = createMemoryGates();
    await gates.throughput("P1", 1000, 0);
    expect(await gates.throughput("P1", 1000, 0)).toBe(1);
  });
});
