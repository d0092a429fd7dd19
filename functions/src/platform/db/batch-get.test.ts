import { describe, expect, it } from "vitest";
import type { Db } from "./client";
import { batchGetAll } from "./batch-get";

/** A table stand-in whose BatchGetItem leaves some keys unprocessed on the first calls, as DynamoDB may. */
const fakeDb = (unprocessedRounds: number) => {
  const calls: number[] = [];
  let left = unprocessedRounds;
  const db = {
    tableName: "t",
    doc: {
      send: async (cmd: { input: { RequestItems: Record<string, { Keys: { id: number }[] }> } }) => {
        const keys = cmd.input.RequestItems.t!.Keys;
        calls.push(keys.length);
        if (left > 0 && keys.length > 1) {
          left--;
          const half = Math.ceil(keys.length / 2);
          return { Responses: { t: keys.slice(0, half).map((k) => ({ ...k, entity: "x" })) }, UnprocessedKeys: { t: { Keys: keys.slice(half) } } };
        }
        return { Responses: { t: keys.filter((k) => k.id % 7 !== 0).map((k) => ({ ...k, entity: "x" })) } };
      },
    },
  };
  return { db: db as unknown as Db, calls };
};

describe("batchGetAll", () => {
  it("asks at most 100 keys per call and answers every existing key once", async () => {
    const { db, calls } = fakeDb(0);
    const keys = Array.from({ length: 250 }, (_, i) => ({ id: i + 1 }));
    const items = await batchGetAll(db, keys);
    expect(calls.every((n) => n <= 100)).toBe(true);
    expect(calls.reduce((a, b) => a + b, 0)).toBe(250);
    expect(items.map((i) => i.id).sort((a, b) => Number(a) - Number(b))).toEqual(keys.map((k) => k.id).filter((id) => id % 7 !== 0));
  });

  it("asks again for the keys DynamoDB left unprocessed until all are answered", async () => {
    const { db, calls } = fakeDb(3);
    const keys = Array.from({ length: 40 }, (_, i) => ({ id: i + 1 }));
    const items = await batchGetAll(db, keys);
    expect(calls.length).toBeGreaterThan(1);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    // every key answered: the first rounds answer half unconditionally, the last the rest (minus the missing ones)
    expect(items.length).toBeGreaterThanOrEqual(keys.filter((k) => k.id % 7 !== 0).length);
  });

  it("asks only for the named attributes when given, and for consistent reads when asked", async () => {
    const inputs: Record<string, unknown>[] = [];
    const db = {
      tableName: "t",
      doc: {
        send: async (cmd: { input: { RequestItems: Record<string, Record<string, unknown> & { Keys: { id: number }[] }> } }) => {
          inputs.push(cmd.input.RequestItems.t!);
          return { Responses: { t: cmd.input.RequestItems.t!.Keys.map((k) => ({ number: String(k.id) })) } };
        },
      },
    } as unknown as Db;
    expect(await batchGetAll(db, [{ id: 1 }, { id: 2 }], { attributes: ["number", "name"], consistent: true })).toEqual([{ number: "1" }, { number: "2" }]);
    expect(inputs).toEqual([{ Keys: [{ id: 1 }, { id: 2 }], ConsistentRead: true, ProjectionExpression: "#a0, #a1", ExpressionAttributeNames: { "#a0": "number", "#a1": "name" } }]);
  });

  it("answers nothing for no keys, without a call", async () => {
    const { db, calls } = fakeDb(0);
    expect(await batchGetAll(db, [])).toEqual([]);
    expect(calls).toEqual([]);
  });
});
