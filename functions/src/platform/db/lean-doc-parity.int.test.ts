import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import "../../testing/provided-context";
import { createTableInput } from "@atende/shared/table/table-definition";
import { LeanDocClient } from "@atende/shared/node/dynamo/lean-doc.client";

/**
 * The lean transport (docs/adr/0054) against the SDK's DocumentClient on DynamoDB Local: the same commands on two
 * copies of the same data give the same answers and the same errors, field for field ($metadata's request id aside).
 */
let tableName = "";
let sdk: DynamoDBDocumentClient;
let lean: LeanDocClient;

beforeAll(async () => {
  const endpoint = inject("dynamoEndpoint");
  tableName = `t_${randomBytes(6).toString("hex")}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  sdk = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  lean = new LeanDocClient({ region: "us-east-1", endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } });
});
afterAll(() => {
  sdk?.destroy();
  lean?.destroy();
});

const strip = (o: unknown) => {
  const { $metadata, ...rest } = o as { $metadata: Record<string, unknown> };
  return { ...rest, $metadata: { httpStatusCode: $metadata.httpStatusCode, attempts: $metadata.attempts } };
};
const errorOf = async (p: Promise<unknown>) => {
  const e = (await p.then(
    () => {
      throw new Error("expected a failure");
    },
    (x: unknown) => x,
  )) as Error & Record<string, unknown>;
  const fields = Object.fromEntries(Object.entries(e).filter(([k]) => k !== "$metadata" && k !== "$response"));
  const m = e.$metadata as Record<string, unknown>;
  return { ctor: e.constructor.name, name: e.name, message: e.message, fields, status: m.httpStatusCode, attempts: m.attempts };
};

/** Runs `make(pk)` through both clients, each on its own partition, and compares. */
const both = async <T,>(make: (pk: string) => { send(c: typeof sdk | typeof lean): Promise<T> }) => {
  const a = await make("SDK").send(sdk);
  const b = await make("LEAN").send(lean);
  return [a, b] as const;
};
const run = (command: unknown) => ({ send: (c: typeof sdk | typeof lean) => (c.send as (x: unknown) => Promise<unknown>)(command) });
const item = (pk: string, sk: string, extra: Record<string, unknown> = {}) => ({
  pk,
  sk,
  name: "Olá, ação",
  n: 42,
  f: 1.5,
  big: 2 ** 40,
  flag: false,
  nothing: null,
  list: [1, "dois", { tres: 3 }, [true]],
  map: { a: { b: "c" }, empty: {} },
  tags: new Set(["x", "y"]),
  nums: new Set([1, 2]),
  bin: new Uint8Array([0, 1, 255]),
  skipped: undefined,
  ...extra,
});

describe("lean transport ≡ the SDK's DocumentClient (DynamoDB Local)", () => {
  it("writes and reads items with every attribute type the same way", async () => {
    for (const pk of ["SDK", "LEAN"]) {
      const c = pk === "SDK" ? sdk : lean;
      await (c.send as (x: unknown) => Promise<unknown>)(new PutCommand({ TableName: tableName, Item: item(pk, "1") }));
      await (c.send as (x: unknown) => Promise<unknown>)(new PutCommand({ TableName: tableName, Item: item(pk, "2", { n: 7 }) }));
      await (c.send as (x: unknown) => Promise<unknown>)(
        new BatchWriteCommand({ RequestItems: { [tableName]: [{ PutRequest: { Item: item(pk, "3") } }, { PutRequest: { Item: item(pk, "4") } }, { DeleteRequest: { Key: { pk, sk: "2" } } }] } }),
      );
    }
    const norm = (o: unknown, from: string) => JSON.parse(JSON.stringify(strip(o), (_k, v: unknown) => (v instanceof Set ? { set: [...v] } : v instanceof Uint8Array ? { bin: [...v] } : v)).replaceAll(`"${from}"`, '"PK"'));
    const [g1, g2] = await both((pk) => run(new GetCommand({ TableName: tableName, Key: { pk, sk: "1" }, ConsistentRead: true })));
    expect(norm(g2, "LEAN")).toEqual(norm(g1, "SDK"));
    expect((g2 as { Item: { bin: unknown } }).Item.bin).toBeInstanceOf(Uint8Array);
    expect((g2 as { Item: { tags: unknown } }).Item.tags).toBeInstanceOf(Set);

    const [m1, m2] = await both((pk) => run(new GetCommand({ TableName: tableName, Key: { pk, sk: "missing" } })));
    expect(strip(m2)).toEqual(strip(m1));

    const [q1, q2] = await both((pk) =>
      run(new QueryCommand({ TableName: tableName, KeyConditionExpression: "pk = :p AND sk > :s", ExpressionAttributeValues: { ":p": pk, ":s": "0" }, Limit: 2, ScanIndexForward: false, ReturnConsumedCapacity: "TOTAL" })),
    );
    expect(norm(q2, "LEAN")).toEqual(norm(q1, "SDK"));
    expect((q2 as { LastEvaluatedKey?: unknown }).LastEvaluatedKey).toEqual({ pk: "LEAN", sk: "3" });

    const [p1, p2] = await both((pk) =>
      run(new QueryCommand({ TableName: tableName, KeyConditionExpression: "pk = :p", ExpressionAttributeValues: { ":p": pk }, ProjectionExpression: "#n, sk", ExpressionAttributeNames: { "#n": "n" }, ExclusiveStartKey: { pk, sk: "1" } })),
    );
    expect(norm(p2, "LEAN")).toEqual(norm(p1, "SDK"));

    const [b1, b2] = await both((pk) => run(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: [{ pk, sk: "1" }, { pk, sk: "3" }, { pk, sk: "4" }], ConsistentRead: true } } })));
    const sortResp = (o: unknown) => {
      const r = o as { Responses: Record<string, { sk: string }[]> };
      r.Responses[tableName]!.sort((x, y) => x.sk.localeCompare(y.sk));
      return o;
    };
    expect(norm(sortResp(b2), "LEAN")).toEqual(norm(sortResp(b1), "SDK"));

    const [u1, u2] = await both((pk) =>
      run(new UpdateCommand({ TableName: tableName, Key: { pk, sk: "1" }, UpdateExpression: "ADD n :one SET #m.a.b = :v REMOVE f", ExpressionAttributeNames: { "#m": "map" }, ExpressionAttributeValues: { ":one": 1, ":v": "d" }, ReturnValues: "ALL_NEW" })),
    );
    expect(norm(u2, "LEAN")).toEqual(norm(u1, "SDK"));

    const [tg1, tg2] = await both((pk) => run(new TransactGetCommand({ TransactItems: [{ Get: { TableName: tableName, Key: { pk, sk: "4" } } }, { Get: { TableName: tableName, Key: { pk, sk: "nope" } } }] })));
    expect(norm(tg2, "LEAN")).toEqual(norm(tg1, "SDK"));

    const [d1, d2] = await both((pk) => run(new DeleteCommand({ TableName: tableName, Key: { pk, sk: "3" }, ReturnValues: "ALL_OLD" })));
    expect(norm(d2, "LEAN")).toEqual(norm(d1, "SDK"));

    const [s1, s2] = await both((pk) => run(new ScanCommand({ TableName: tableName, FilterExpression: "pk = :p", ExpressionAttributeValues: { ":p": pk }, Select: "COUNT" })));
    expect(strip(s2)).toEqual(strip(s1));
  });

  it("fails the same way: a lost condition, a cancelled transaction, an invalid request", async () => {
    const lost = () => new PutCommand({ TableName: tableName, Item: { pk: "X", sk: "1" }, ConditionExpression: "attribute_exists(pk)" });
    const c1 = await errorOf((sdk.send as (x: unknown) => Promise<unknown>)(lost()));
    const c2 = await errorOf((lean.send as (x: unknown) => Promise<unknown>)(lost()));
    expect(c2).toEqual(c1);
    expect(c2.name).toBe("ConditionalCheckFailedException");

    for (const c of [sdk, lean]) await (c.send as (x: unknown) => Promise<unknown>)(new PutCommand({ TableName: tableName, Item: { pk: "Y", sk: "1", v: 1 } }));
    const tx = () =>
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName, Item: { pk: "Y", sk: "2" } } },
          { Update: { TableName: tableName, Key: { pk: "Y", sk: "1" }, UpdateExpression: "SET v = :n", ConditionExpression: "v = :old", ExpressionAttributeValues: { ":n": 3, ":old": 2 }, ReturnValuesOnConditionCheckFailure: "ALL_OLD" } },
        ],
      });
    const t1 = await errorOf((sdk.send as (x: unknown) => Promise<unknown>)(tx()));
    const t2 = await errorOf((lean.send as (x: unknown) => Promise<unknown>)(tx()));
    expect(t2).toEqual(t1);
    expect(t2.name).toBe("TransactionCanceledException");
    expect((t2.fields.CancellationReasons as { Code: string }[]).map((r) => r.Code)).toEqual(["None", "ConditionalCheckFailed"]);

    const v1 = await errorOf((sdk.send as (x: unknown) => Promise<unknown>)(new GetCommand({ TableName: tableName, Key: { pk: "only" } })));
    const v2 = await errorOf((lean.send as (x: unknown) => Promise<unknown>)(new GetCommand({ TableName: tableName, Key: { pk: "only" } })));
    expect(v2).toEqual(v1);
    expect(v2.name).toBe("ValidationException");

    const r1 = await errorOf((sdk.send as (x: unknown) => Promise<unknown>)(new GetCommand({ TableName: "no_such_table", Key: { pk: "a", sk: "b" } })));
    const r2 = await errorOf((lean.send as (x: unknown) => Promise<unknown>)(new GetCommand({ TableName: "no_such_table", Key: { pk: "a", sk: "b" } })));
    expect(r2).toEqual(r1);
    expect(r2.name).toBe("ResourceNotFoundException");
  });
});
