import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import "../../testing/provided-context";
import { createTableInput } from "@atende/shared/table/table-definition";
import { createDb } from "../db/client";
import { createAttemptLimiter, type AttemptLimiter } from "./attempt-limiter";

/** The attempt limiter against DynamoDB Local (docs/adr/0064): slots are taken atomically, before any check. */
let limiter: AttemptLimiter;
let now = new Date("2026-03-01T12:00:00Z");
let n = 0;
const fresh = () => `test:${++n}`;
const rule = { limit: 5, windowSeconds: 900 };
const settle = async (ps: Promise<unknown>[]) => {
  const out = await Promise.allSettled(ps);
  return { taken: out.filter((r) => r.status === "fulfilled").length, refused: out.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason) };
};

beforeAll(async () => {
  const endpoint = inject("dynamoEndpoint");
  const tableName = `t_${randomBytes(6).toString("hex")}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  client.destroy();
  limiter = createAttemptLimiter(createDb({ tableName, endpoint, region: "us-east-1" }), () => now);
});

describe("attempt limiter", () => {
  it("100 attempts at once get exactly the limit's slots; the rest are refused with the wait until the window ends", async () => {
    const key = fresh();
    const { taken, refused } = await settle(Array.from({ length: 100 }, () => limiter.take(key, rule)));
    expect(taken).toBe(5);
    expect(refused).toHaveLength(95);
    expect(refused[0]).toMatchObject({ code: "ERR_TOO_MANY_ATTEMPTS", status: 429, data: { retryAfter: 900 } });
  });

  it("a slot given back is taken again; giving back twice returns one slot", async () => {
    const key = fresh();
    const slots = await Promise.all(Array.from({ length: 5 }, () => limiter.take(key, rule)));
    await expect(limiter.take(key, rule)).rejects.toMatchObject({ code: "ERR_TOO_MANY_ATTEMPTS" });
    await slots[0]!.release();
    await slots[0]!.release();
    await limiter.take(key, rule);
    await expect(limiter.take(key, rule)).rejects.toMatchObject({ code: "ERR_TOO_MANY_ATTEMPTS" });
  });

  it("the window starts at the first attempt; after it, the next attempt opens a new one (once, under a race)", async () => {
    const key = fresh();
    for (let i = 0; i < 5; i++) await limiter.take(key, rule);
    now = new Date(now.getTime() + 600_000);
    await expect(limiter.take(key, rule)).rejects.toMatchObject({ data: { retryAfter: 300 } });
    now = new Date(now.getTime() + 300_000);
    const { taken } = await settle(Array.from({ length: 20 }, () => limiter.take(key, rule)));
    expect(taken).toBe(5);
  });

  it("a caller that lost the race to open the next window still gets a slot while the new window has room", async () => {
    // repeated: the interleaving (update fails on the old window, another caller opens the new one, then the read)
    // happens only now and then
    for (let round = 0; round < 8; round++) {
      const key = fresh();
      for (let i = 0; i < 5; i++) await limiter.take(key, rule);
      now = new Date(now.getTime() + 900_000);
      const { taken } = await settle(Array.from({ length: 30 }, () => limiter.take(key, rule)));
      expect(taken).toBe(5);
    }
  });

  it("n slots at once (the external API's files) fit only whole; more than the limit is always refused", async () => {
    const key = fresh();
    await limiter.take(key, rule, 3);
    await expect(limiter.take(key, rule, 3)).rejects.toMatchObject({ code: "ERR_TOO_MANY_ATTEMPTS" });
    await limiter.take(key, rule, 2);
    await expect(limiter.take(fresh(), rule, 6)).rejects.toMatchObject({ code: "ERR_TOO_MANY_ATTEMPTS" });
  });

  it("takeAll takes every key or none (a refused key gives the others back); reset forgets a key", async () => {
    const a = fresh();
    const b = fresh();
    for (let i = 0; i < 5; i++) await limiter.take(b, rule);
    await expect(limiter.takeAll([{ key: a, rule }, { key: b, rule }])).rejects.toMatchObject({ code: "ERR_TOO_MANY_ATTEMPTS" });
    // a's slot was given back: all five are still there
    const { taken } = await settle(Array.from({ length: 6 }, () => limiter.take(a, rule)));
    expect(taken).toBe(5);
    await limiter.reset(b);
    const both = await limiter.takeAll([{ key: fresh(), rule }, { key: b, rule }]);
    await both.release();
  });
});
