import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { createBotTurnsRepository, type BotTurnStore } from "./bot-turns.repository";
import { createBotUsageRepository } from "./bot-usage.repository";

let t: TestApp;
let store: BotTurnStore;
beforeAll(async () => {
  t = await createTestApp();
  store = createBotTurnsRepository(t.container.db);
});

const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 10, 0, s));

describe("bot turns item (DynamoDB)", () => {
  it("queues messages in order; one lease at a time; done pops the head only for the holder; release waits for an empty queue", async () => {
    expect(await store.acquire(1, 10, "a", at(0), 60_000)).toEqual({ idle: true });
    for (const id of ["m1", "m2"]) expect(await store.push(1, 10, id, at(0))).toBe(true);
    const got = await store.acquire(1, 10, "a", at(1), 60_000);
    expect("item" in got && got.item.pending).toEqual(["m1", "m2"]);
    // a second worker sees the lease held until its expiry
    expect(await store.acquire(1, 10, "b", at(2), 60_000)).toEqual({ heldUntil: new Date(at(61).toISOString()) });
    // only the holder, and only for the head message
    expect(await store.done(1, 10, "b", "m1", {}, at(3), 60_000)).toBeNull();
    expect(await store.done(1, 10, "a", "m2", {}, at(3), 60_000)).toBeNull();
    const after = await store.done(1, 10, "a", "m1", { bot: { kind: "prompt", id: 3 }, state: { step: 1 } }, at(3), 60_000);
    expect(after).toMatchObject({ pending: ["m2"], bot: { kind: "prompt", id: 3 }, state: { step: 1 }, turns: 1, leaseOwner: "a" });
    expect(await store.release(1, 10, "a")).toBe(false);
    await store.done(1, 10, "a", "m2", {}, at(4), 60_000);
    expect(await store.release(1, 10, "a")).toBe(true);
    expect(await store.get(1, 10)).toMatchObject({ pending: [], leaseOwner: null, leaseUntil: null, state: { step: 1 }, turns: 2 });
  });

  it("done with release lets the lease go in the same write when no other message waits; else keeps it, saving the turn either way", async () => {
    await store.push(1, 14, "m1", at(0), 501);
    const got = await store.acquire(1, 14, "a", at(0), 60_000);
    expect("item" in got && got.item).toMatchObject({ pending: ["m1"], contactId: 501 });
    const last = await store.done(1, 14, "a", "m1", { state: { step: 2 } }, at(1), 60_000, { release: true });
    expect(last).toMatchObject({ pending: [], leaseOwner: null, leaseUntil: null, state: { step: 2 }, turns: 1 });
    // a message that arrived while the turn ran: the write is made without the release, the holder goes on
    await store.push(1, 14, "m2", at(2), 501);
    await store.acquire(1, 14, "b", at(2), 60_000);
    await store.push(1, 14, "m3", at(3), 501);
    const kept = await store.done(1, 14, "b", "m2", { state: { step: 3 } }, at(3), 60_000, { release: true });
    expect(kept).toMatchObject({ pending: ["m3"], leaseOwner: "b", state: { step: 3 }, turns: 2 });
    // not the holder: nothing is written, released or not
    expect(await store.done(1, 14, "c", "m3", {}, at(4), 60_000, { release: true })).toBeNull();
    expect(await store.get(1, 14)).toMatchObject({ pending: ["m3"], leaseOwner: "b", turns: 2 });
  });

  it("lets another worker take an expired lease; the old holder can no longer finish", async () => {
    await store.push(1, 11, "m1", at(0));
    await store.acquire(1, 11, "dead", at(0), 10_000);
    const taken = await store.acquire(1, 11, "alive", at(11), 10_000);
    expect("item" in taken).toBe(true);
    expect(await store.done(1, 11, "dead", "m1", {}, at(12), 10_000)).toBeNull();
    expect(await store.release(1, 11, "dead")).toBe(true); // not ours any more: the new holder goes on
    expect((await store.done(1, 11, "alive", "m1", {}, at(12), 10_000))!.pending).toEqual([]);
  });

  it("abandon lets the lease go with messages waiting (the job's retry takes it at once); only for the holder", async () => {
    await store.push(1, 13, "m1", at(0));
    await store.acquire(1, 13, "a", at(0), 60_000);
    await store.abandon(1, 13, "b");
    expect(await store.get(1, 13)).toMatchObject({ leaseOwner: "a" });
    await store.abandon(1, 13, "a");
    expect(await store.get(1, 13)).toMatchObject({ leaseOwner: null, pending: ["m1"] });
    expect("item" in (await store.acquire(1, 13, "retry", at(1), 60_000))).toBe(true);
  });

  it("after a stop, no message is queued any more, and the first stop's reason stays", async () => {
    await store.push(1, 12, "m1", at(0));
    await store.acquire(1, 12, "a", at(0), 10_000);
    await store.done(1, 12, "a", "m1", { stop: { at: at(1), reason: "keyword" } }, at(1), 10_000);
    expect(await store.push(1, 12, "m2", at(2))).toBe(false);
    expect(await store.get(1, 12)).toMatchObject({ pending: [], stopReason: "keyword", stoppedAt: at(1).toISOString() });
    // another company's ticket with the same id is its own item
    expect(await store.push(2, 12, "m1", at(2))).toBe(true);
  });

  it("counts tokens per company and month, per prompt too, without losing concurrent adds", async () => {
    const usage = createBotUsageRepository(t.container.db);
    await Promise.all(Array.from({ length: 10 }, (_, i) => usage.add(5, "2026-11", i % 2 ? 1 : 2, { promptTokens: 10, completionTokens: 5 })));
    expect(await usage.get(5, "2026-11")).toEqual({ month: "2026-11", promptTokens: 100, completionTokens: 50, byPrompt: { 1: 75, 2: 75 }, turns: 10 });
    expect((await usage.get(5, "2026-12")).promptTokens).toBe(0);
    expect((await usage.get(6, "2026-11")).turns).toBe(0);
  });
});
