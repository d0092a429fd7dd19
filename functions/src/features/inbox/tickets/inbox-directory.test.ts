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

  it("reuses the lists' cards' names (point reads) for at most a second when asked, never for other callers, and keeps no miss", async () => {
    vi.useFakeTimers({ now: 2_000_000 });
    let name = "Vendas";
    let queueReads = 0;
    let tagReads = 0;
    const none = async () => null;
    const empty = async () => [];
    const directory = createInboxDirectory(
      {
        companies: { findById: none },
        queues: { findById: async (_c: number, id: number) => (queueReads++, { id, name, color: "#111111" }) as never, listByCompany: empty },
        users: { findById: none, listByCompany: empty },
        whatsapps: { findById: none, listByCompany: empty },
        settings: { list: empty } as never,
        tags: { findById: async () => (tagReads++, null), listByCompany: empty },
      },
      5000,
    );
    const need = { queueIds: [1], userIds: [], whatsappIds: [], tagIds: [9], settings: false };
    expect((await directory.loadFor(7, need, undefined, { reuse: true })).queues.get(1)?.name).toBe("Vendas");
    name = "Vendas SP";
    vi.setSystemTime(2_000_000 + DIRECTORY_REUSE_MAX_MS - 1);
    expect((await directory.loadFor(7, need, undefined, { reuse: true })).queues.get(1)?.name).toBe("Vendas");
    expect(queueReads).toBe(1);
    // a missing tag is read again every time; a caller not asking for reuse (a write) always reads
    expect(tagReads).toBe(2);
    expect((await directory.loadFor(7, need)).queues.get(1)?.name).toBe("Vendas SP");
    expect(queueReads).toBe(2);
    // another company's entry is its own
    await directory.loadFor(8, need, undefined, { reuse: true });
    expect(queueReads).toBe(3);
    vi.setSystemTime(2_000_000 + DIRECTORY_REUSE_MAX_MS);
    expect((await directory.loadFor(7, need, undefined, { reuse: true })).queues.get(1)?.name).toBe("Vendas SP");
    expect(queueReads).toBe(4);
  });
});
