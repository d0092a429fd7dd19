import { expect, it } from "vitest";
import { containerMemoryLimit, createMemoryGuard } from "./memory-pressure";

it("stops taking connections over the RSS or heap threshold, and takes them again once under", () => {
  let u = { rss: 500e6, heapUsed: 100e6 };
  const guard = createMemoryGuard({ maxRssBytes: 800e6, heapRatio: 0.85, heapLimit: 1_000e6, usage: () => u });
  expect(guard.canTakeConnections()).toBe(true);
  u = { rss: 801e6, heapUsed: 100e6 };
  expect(guard.canTakeConnections()).toBe(false);
  u = { rss: 500e6, heapUsed: 851e6 };
  expect(guard.canTakeConnections()).toBe(false);
  u = { rss: 500e6, heapUsed: 300e6 };
  expect(guard.canTakeConnections()).toBe(true);
});

it("reads the container's limit from cgroup v2, then v1; none when unlimited", () => {
  expect(containerMemoryLimit((p) => (p.endsWith("memory.max") ? "1073741824\n" : ""))).toBe(1_073_741_824);
  expect(containerMemoryLimit((p) => (p.endsWith("memory.max") ? "max\n" : "536870912"))).toBe(536_870_912);
  expect(
    containerMemoryLimit(() => {
      throw new Error("ENOENT");
    }),
  ).toBeUndefined();
});
