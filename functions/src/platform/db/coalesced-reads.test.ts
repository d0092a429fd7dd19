import { describe, expect, it } from "vitest";
import { BatchGetCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "./client";
import { coalescedReads } from "./coalesced-reads";

/** A table of items by pk/sk answering GetItem/BatchGetItem like DynamoDB, recording every call it receives. */
const fakeDb = (items: Record<string, unknown>[], opts: { unprocessedOnce?: boolean } = {}) => {
  const calls: { name: string; input: any }[] = [];
  let unprocessed = opts.unprocessedOnce ?? false;
  const find = (k: any) => items.find((i) => i.pk === k.pk && i.sk === k.sk);
  const doc = {
    send: async (command: any) => {
      calls.push({ name: command.constructor.name, input: command.input });
      if (command instanceof GetCommand) return { $metadata: {}, Item: find(command.input.Key) };
      if (command instanceof BatchGetCommand) {
        const [table, req] = (Object.entries(command.input.RequestItems!) as [string, { Keys: any[] }][])[0]!;
        let keys = req.Keys;
        let left: any[] = [];
        if (unprocessed && keys.length > 1) {
          unprocessed = false;
          left = keys.slice(1);
          keys = keys.slice(0, 1);
        }
        return { $metadata: {}, Responses: { [table]: keys.map(find).filter(Boolean) }, UnprocessedKeys: left.length ? { [table]: { Keys: left } } : {} };
      }
      return { $metadata: {} };
    },
  };
  return { db: { doc, tableName: "T" } as unknown as Db, calls };
};
const item = (sk: string) => ({ pk: "CO#1", sk, name: sk });

describe("coalesced point reads (docs/adr/0040)", () => {
  it("answers the GetItems and BatchGetItems started side by side with one BatchGetItem, each caller its own items", async () => {
    const { db, calls } = fakeDb([item("QUEUE#1"), item("USER#2"), item("CONTACT#3"), item("CONTACT#4")]);
    const [queue, missing, user, contacts] = await coalescedReads(db, () =>
      Promise.all([
        db.doc.send(new GetCommand({ TableName: "T", Key: { pk: "CO#1", sk: "QUEUE#1" } })),
        db.doc.send(new GetCommand({ TableName: "T", Key: { pk: "CO#1", sk: "TAG#9" } })),
        db.doc.send(new GetCommand({ TableName: "T", Key: { pk: "CO#1", sk: "USER#2" }, ConsistentRead: true })),
        db.doc.send(new BatchGetCommand({ RequestItems: { T: { Keys: [{ pk: "CO#1", sk: "CONTACT#3" }, { pk: "CO#1", sk: "CONTACT#4" }, { pk: "CO#1", sk: "CONTACT#5" }] } } })),
      ]),
    );
    expect(calls.map((c) => c.name)).toEqual(["BatchGetCommand"]);
    expect(calls[0]!.input.RequestItems.T.Keys).toHaveLength(6);
    // one caller asked for a consistent read: the batch is consistent
    expect(calls[0]!.input.RequestItems.T.ConsistentRead).toBe(true);
    expect(queue.Item).toEqual(item("QUEUE#1"));
    expect(missing.Item).toBeUndefined();
    expect(user.Item).toEqual(item("USER#2"));
    expect(contacts.Responses!.T!.map((i) => i.sk).sort()).toEqual(["CONTACT#3", "CONTACT#4"]);
  });

  it("asks again for the keys DynamoDB left unprocessed", async () => {
    const { db, calls } = fakeDb([item("A"), item("B")], { unprocessedOnce: true });
    const [a, b] = await coalescedReads(db, () =>
      Promise.all([db.doc.send(new GetCommand({ TableName: "T", Key: { pk: "CO#1", sk: "A" } })), db.doc.send(new GetCommand({ TableName: "T", Key: { pk: "CO#1", sk: "B" } }))]),
    );
    expect(calls).toHaveLength(2);
    expect([a.Item, b.Item]).toEqual([item("A"), item("B")]);
  });

  it("leaves writes, projections and everything outside its scope alone", async () => {
    const { db, calls } = fakeDb([item("A")]);
    await coalescedReads(db, async () => {
      await db.doc.send(new PutCommand({ TableName: "T", Item: item("C") }));
      await db.doc.send(new GetCommand({ TableName: "T", Key: { pk: "CO#1", sk: "A" }, ProjectionExpression: "sk" }));
    });
    await Promise.all([db.doc.send(new GetCommand({ TableName: "T", Key: { pk: "CO#1", sk: "A" } })), db.doc.send(new GetCommand({ TableName: "T", Key: { pk: "CO#1", sk: "A" } }))]);
    expect(calls.map((c) => c.name)).toEqual(["PutCommand", "GetCommand", "GetCommand", "GetCommand"]);
  });
});
