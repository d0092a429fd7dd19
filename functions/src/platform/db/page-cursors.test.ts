import { describe, expect, it } from "vitest";
import { pageByNumberWith, type PageCursors } from "./page-cursors";

/** Remembered cursors in memory, with the calls made to them. */
const memoryCursors = () => {
  const kept = new Map<string, string>();
  const calls: string[] = [];
  const cursors: PageCursors = {
    async get(_c, _v, _q, page) {
      calls.push(`get ${page}`);
      return kept.get(String(page)) ?? null;
    },
    async put(_c, _v, _q, page, cursor) {
      calls.push(`put ${page}`);
      kept.set(String(page), cursor);
    },
  };
  return { cursors, calls, kept };
};

/** A source of `n` items (newest first, as the lists), read `limit` at a time below a cursor; records each read. */
const source = (n: number, pageSize: number) => {
  const all = Array.from({ length: n }, (_, i) => `item-${String(n - i).padStart(3, "0")}`);
  const reads: string[] = [];
  const fetch = async (cursor: string | undefined, pages = 1) => {
    reads.push(`${cursor ?? "start"} × ${pages}`);
    const from = cursor === undefined ? 0 : all.indexOf(cursor) + 1;
    const items = all.slice(from, from + pageSize * pages);
    return { items, ...(from + items.length < all.length ? { next: items[items.length - 1]! } : {}) };
  };
  return { all, reads, fetch };
};

const serve = (page: number, opts: { cursors: PageCursors; fetch: ReturnType<typeof source>["fetch"] } & ({ firstPages?: undefined; pageSize?: undefined } | { firstPages: number; pageSize: number })) =>
  pageByNumberWith({ companyId: 1, viewerId: 2, queryHash: "q", page, now: new Date(), present: async (items) => items, ...opts });

describe("pageByNumberWith, first pages in one read (docs/adr/0046)", () => {
  it("serves pages 1..firstPages from the start without reading or writing a cursor, except the next one after the last of them", async () => {
    const { cursors, calls } = memoryCursors();
    const src = source(50, 10);
    const opts = { cursors, fetch: src.fetch, firstPages: 2, pageSize: 10 };
    const p1 = await serve(1, opts);
    expect(p1.items).toEqual(src.all.slice(0, 10));
    expect(p1.hasMore).toBe(true);
    expect(calls).toEqual([]);
    const p2 = await serve(2, opts);
    expect(p2.items).toEqual(src.all.slice(10, 20));
    expect(src.reads).toEqual(["start × 1", "start × 2"]);
    // page 2 remembers page 3's cursor for a pageNumber-only client going on
    expect(calls).toEqual(["put 3"]);
    const p3 = await serve(3, opts);
    expect(p3.items).toEqual(src.all.slice(20, 30));
    expect(calls).toEqual(["put 3", "get 3", "put 4"]);
    expect(src.reads.at(-1)).toBe(`${src.all[19]} × 1`);
  });

  it("walks to a deeper page from one read of the first pages, remembering the cursors it passes, with the same items as paging one by one", async () => {
    const one = memoryCursors();
    const byOne = source(45, 10);
    const many = memoryCursors();
    const byMany = source(45, 10);
    for (const page of [4, 5, 6]) {
      const single = await serve(page, { cursors: one.cursors, fetch: byOne.fetch });
      const first = await serve(page, { cursors: many.cursors, fetch: byMany.fetch, firstPages: 2, pageSize: 10 });
      expect(first).toEqual(single);
    }
    // page 4 unknown: pages 1-2 in one read, then 3 and 4; remembered: 3 (passed), 4 (reached), 5 (next; the last page)
    expect(byMany.reads.slice(0, 3)).toEqual(["start × 2", `${byMany.all[19]} × 1`, `${byMany.all[29]} × 1`]);
    expect([...many.kept.keys()].sort()).toEqual(["3", "4", "5"]);
    const last = await serve(5, { cursors: many.cursors, fetch: byMany.fetch, firstPages: 2, pageSize: 10 });
    expect(last.items).toEqual(byMany.all.slice(40));
    expect(last.hasMore).toBe(false);
  });

  it("answers an empty page past the end, and pages by cursor as before without firstPages", async () => {
    const { cursors, calls } = memoryCursors();
    const src = source(8, 10);
    expect(await serve(2, { cursors, fetch: src.fetch, firstPages: 2, pageSize: 10 })).toEqual({ items: [], hasMore: false });
    expect(calls).toEqual([]);
    const plain = memoryCursors();
    const other = source(25, 10);
    await serve(1, { cursors: plain.cursors, fetch: other.fetch });
    expect(plain.calls).toEqual(["put 2"]);
    expect(other.reads).toEqual(["start × 1"]);
  });
});
