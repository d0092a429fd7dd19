import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { resyncOnOpen } from "./resync-on-open";

const deferred = () => {
  let resolve!: (value: string) => void;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
};

describe("resyncOnOpen", () => {
  it("reads again what was read before the socket opened, leaves later reads and fetches under way alone", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const calls: Record<string, number> = { before: 0, after: 0, inFlight: 0 };
    const keyOf = (name: string) => ["resync-test", name];
    const watch = (key: string, fn: () => Promise<string>) => {
      const observer = new QueryObserver(client, { queryKey: keyOf(key), queryFn: () => (calls[key]!++, fn()) });
      return observer.subscribe(() => undefined);
    };

    const offBefore = watch("before", async () => "old");
    await client.getQueryCache().find({ queryKey: keyOf("before") })!.promise;
    const openedAt = Date.now() + 1;
    await new Promise((r) => setTimeout(r, 5));
    client.setQueryData(keyOf("after"), "new");
    const offAfter = watch("after", async () => "refetched");
    const slow = deferred();
    const offInFlight = watch("inFlight", () => slow.promise);
    expect(calls).toEqual({ before: 1, after: 0, inFlight: 1 });

    const resynced = resyncOnOpen(client, { openedAt });
    expect(calls.before).toBe(2);
    slow.resolve("done");
    await resynced;
    expect(calls.after).toBe(0);
    expect(calls.inFlight).toBe(1);
    expect(client.getQueryData(keyOf("inFlight"))).toBe("done");
    [offBefore, offAfter, offInFlight].forEach((off) => off());
  });
});
