import { afterEach, describe, expect, it, vi } from "vitest";
import { createInboxDirectory, DIRECTORY_REUSE_MAX_MS } from "./inbox-directory";

/** A directory whose queue list names the queue as it is "now" in the store, counting the company reads. */
const setup = (reuseMs: number) => {
  let name = "Vendas";
  let reads = 0;
  const none = async () => null;
  const empty = async () => [];
  const directory = createInboxDirectory(
    {
      companies: { findById: async () => (reads++, null) },
      queues: { findById: none, listByCompany: async () => [{ id: 1, name, color: "#111111" }] as never[] },
      users: { findById: none, listByCompany: empty },
      whatsapps: { findById: none, listByCompany: empty },
      settings: { list: empty } as never,
      tags: { findById: none, listByCompany: empty },
    },
    reuseMs,
  );
  return { directory, rename: (n: string) => (name = n), reads: () => reads };
};

describe("inbox directory reuse (issue 15: no per-instance cache shows a list more than a second old)", () => {
  afterEach(() => vi.useRealTimers());

  it("reuses a company's directory within a second and reads it again after, whatever ttl it was given", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { directory, rename, reads } = setup(2000);
    expect((await directory.load(7)).queues.get(1)?.name).toBe("Vendas");
    rename("Vendas SP");
    vi.setSystemTime(1_000_000 + DIRECTORY_REUSE_MAX_MS - 1);
    expect((await directory.load(7)).queues.get(1)?.name).toBe("Vendas");
    expect(reads()).toBe(1);
    vi.setSystemTime(1_000_000 + DIRECTORY_REUSE_MAX_MS);
    expect((await directory.load(7)).queues.get(1)?.name).toBe("Vendas SP");
    expect(reads()).toBe(2);
  });

  it("reads every time with a reuse of 0", async () => {
    const { directory, reads } = setup(0);
    await directory.load(7);
    await directory.load(7);
    expect(reads()).toBe(2);
  });
});
