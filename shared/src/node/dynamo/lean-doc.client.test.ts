import http from "node:http";
import type { AddressInfo } from "node:net";
import { ConditionalCheckFailedException, DynamoDBServiceException, TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { BatchGetCommand, ExecuteStatementCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DbCall, type DbCallOutcome, createDocClient, LeanDocClient, SdkDocClient } from "./lean-doc.client";

type Seen = { headers: http.IncomingHttpHeaders; body: Record<string, unknown> };
type Reply = { status?: number; body?: unknown; reset?: boolean };

let server: http.Server;
let port = 0;
let seen: Seen[] = [];
let replies: Reply[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown> });
      const reply = replies.shift() ?? { body: {} };
      if (reply.reset) {
        req.socket.destroy();
        return;
      }
      res.writeHead(reply.status ?? 200, { "content-type": "application/x-amz-json-1.0", "x-amzn-requestid": `req-${seen.length}` });
      res.end(JSON.stringify(reply.body ?? {}));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  seen = [];
  replies = [];
});

const client = (over: Partial<ConstructorParameters<typeof LeanDocClient>[0]> = {}) =>
  new LeanDocClient({ region: "sa-east-1", endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "secret" }, ...over });
const awsError = (type: string, message: string, extra: Record<string, unknown> = {}) => ({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message, ...extra });

describe("lean DynamoDB transport", () => {
  it("marshals the document input as the DocumentClient does and unmarshalls the answer's items", async () => {
    const doc = client();
    const bin = new Uint8Array([1, 2, 250]);
    replies.push({ body: {} });
    await doc.send(new PutCommand({ TableName: "t", Item: { pk: "A", n: 7, gone: undefined, tags: new Set(["x", "y"]), nested: { a: [1, "b", null, true] }, bin }, ConditionExpression: "attribute_not_exists(pk)" }));
    expect(seen[0]!.headers["x-amz-target"]).toBe("DynamoDB_20120810.PutItem");
    expect(seen[0]!.headers["content-type"]).toBe("application/x-amz-json-1.0");
    expect(seen[0]!.body).toEqual({
      TableName: "t",
      ConditionExpression: "attribute_not_exists(pk)",
      Item: { pk: { S: "A" }, n: { N: "7" }, tags: { SS: ["x", "y"] }, nested: { M: { a: { L: [{ N: "1" }, { S: "b" }, { NULL: true }, { BOOL: true }] } } }, bin: { B: "AQL6" } },
    });

    replies.push({ body: { Item: { pk: { S: "A" }, n: { N: "7" }, bin: { B: "AQL6" }, bs: { BS: ["AQ=="] }, m: { M: { B: { S: "not binary" } } } } } });
    const got = await doc.send(new GetCommand({ TableName: "t", Key: { pk: "A" }, ConsistentRead: true }));
    expect(seen[1]!.body).toEqual({ TableName: "t", Key: { pk: { S: "A" } }, ConsistentRead: true });
    expect(got.Item).toEqual({ pk: "A", n: 7, bin: new Uint8Array([1, 2, 250]), bs: new Set([new Uint8Array([1])]), m: { B: "not binary" } });
    expect(got.$metadata).toMatchObject({ httpStatusCode: 200, requestId: "req-2", attempts: 1, totalRetryDelay: 0 });

    const items = [marshall({ pk: "A", sk: "1" }), marshall({ pk: "A", sk: "2" })];
    replies.push({ body: { Items: items, Count: 2, ScannedCount: 2, LastEvaluatedKey: marshall({ pk: "A", sk: "2" }) } });
    const q = await doc.send(new QueryCommand({ TableName: "t", KeyConditionExpression: "pk = :p", ExpressionAttributeValues: { ":p": "A" }, Limit: 2 }));
    expect(seen[2]!.body.ExpressionAttributeValues).toEqual({ ":p": { S: "A" } });
    expect(q).toMatchObject({ Items: [{ pk: "A", sk: "1" }, { pk: "A", sk: "2" }], Count: 2, ScannedCount: 2, LastEvaluatedKey: { pk: "A", sk: "2" } });

    replies.push({ body: { Responses: { t: [marshall({ pk: "B", v: 1 })] }, UnprocessedKeys: { t: { Keys: [marshall({ pk: "C" })], ConsistentRead: true } } } });
    const b = await doc.send(new BatchGetCommand({ RequestItems: { t: { Keys: [{ pk: "B" }, { pk: "C" }], ConsistentRead: true } } }));
    expect(seen[3]!.body).toEqual({ RequestItems: { t: { Keys: [{ pk: { S: "B" } }, { pk: { S: "C" } }], ConsistentRead: true } } });
    expect(b.Responses).toEqual({ t: [{ pk: "B", v: 1 }] });
    expect(b.UnprocessedKeys).toEqual({ t: { Keys: [{ pk: "C" }], ConsistentRead: true } });

    replies.push({ body: { Attributes: marshall({ pk: "A", n: 8 }), ConsumedCapacity: { TableName: "t", CapacityUnits: 1 } } });
    const u = await doc.send(new UpdateCommand({ TableName: "t", Key: { pk: "A" }, UpdateExpression: "ADD n :one", ExpressionAttributeValues: { ":one": 1 }, ReturnValues: "ALL_NEW" }));
    expect(u.Attributes).toEqual({ pk: "A", n: 8 });
    expect(u.ConsumedCapacity).toEqual({ TableName: "t", CapacityUnits: 1 });
    doc.destroy();
  });

  it("signs every request with SigV4 (a well-formed Authorization over host, date and target)", async () => {
    const doc = client({ credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "secret", sessionToken: "tok" } });
    await doc.send(new GetCommand({ TableName: "t", Key: { pk: "A" } }));
    const h = seen[0]!.headers;
    expect(h.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/sa-east-1\/dynamodb\/aws4_request, SignedHeaders=([a-z0-9-;]+), Signature=[0-9a-f]{64}$/);
    const signed = /SignedHeaders=([^,]+)/.exec(h.authorization!)![1]!.split(";");
    expect(signed).toEqual(expect.arrayContaining(["content-type", "host", "x-amz-date", "x-amz-security-token", "x-amz-target"]));
    expect(h["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
    expect(h["x-amz-security-token"]).toBe("tok");
    expect(h.host).toBe(`127.0.0.1:${port}`);
    doc.destroy();
  });

  it("throws the SDK's exception classes with the same name, message, status and fields", async () => {
    const doc = client();
    replies.push({ status: 400, body: awsError("ConditionalCheckFailedException", "The conditional request failed") });
    const e1 = await doc.send(new PutCommand({ TableName: "t", Item: { pk: "A" }, ConditionExpression: "attribute_not_exists(pk)" })).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ConditionalCheckFailedException);
    expect(e1).toMatchObject({ name: "ConditionalCheckFailedException", message: "The conditional request failed", $fault: "client", $metadata: { httpStatusCode: 400, requestId: "req-1", attempts: 1 } });
    expect(seen).toHaveLength(1); // a lost condition is not retried

    const reasons = [{ Code: "None" }, { Code: "ConditionalCheckFailed", Message: "The conditional request failed" }];
    replies.push({ status: 400, body: { __type: "com.amazonaws.dynamodb.v20120810#TransactionCanceledException", Message: "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]", CancellationReasons: reasons } });
    const e2 = (await doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: "t", Item: { pk: "A" } } }, { Delete: { TableName: "t", Key: { pk: "B" } } }] })).catch((e: unknown) => e)) as TransactionCanceledException;
    expect(e2).toBeInstanceOf(TransactionCanceledException);
    expect(e2.name).toBe("TransactionCanceledException");
    expect(e2.message).toBe("Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]");
    expect(e2.CancellationReasons).toEqual(reasons);
    expect(e2.$metadata.httpStatusCode).toBe(400);
    expect(seen).toHaveLength(2);

    replies.push({ status: 400, body: { __type: "com.amazon.coral.validate#ValidationException", message: "One or more parameter values were invalid" } });
    const e3 = (await doc.send(new GetCommand({ TableName: "t", Key: {} })).catch((e: unknown) => e)) as DynamoDBServiceException;
    expect(e3).toBeInstanceOf(DynamoDBServiceException);
    expect(e3).toMatchObject({ name: "ValidationException", message: "One or more parameter values were invalid", $fault: "client", $metadata: { httpStatusCode: 400 } });
    doc.destroy();
  });

  it("retries throttling, 5xx and connection resets like the SDK's standard mode, not client errors", async () => {
    const doc = client();
    replies.push({ status: 400, body: awsError("ProvisionedThroughputExceededException", "slow down") }, { body: { Item: marshall({ pk: "A" }) } });
    const got = await doc.send(new GetCommand({ TableName: "t", Key: { pk: "A" } }));
    expect(got.Item).toEqual({ pk: "A" });
    expect(got.$metadata.attempts).toBe(2);
    expect(seen).toHaveLength(2);

    seen = [];
    replies.push({ reset: true }, { body: { Item: marshall({ pk: "B" }) } });
    expect((await doc.send(new GetCommand({ TableName: "t", Key: { pk: "B" } }))).Item).toEqual({ pk: "B" });
    expect(seen).toHaveLength(2);

    seen = [];
    replies.push(...Array.from({ length: 4 }, () => ({ status: 500, body: awsError("InternalServerError", "boom") })));
    const e = (await doc.send(new GetCommand({ TableName: "t", Key: { pk: "C" } })).catch((x: unknown) => x)) as DynamoDBServiceException;
    expect(e.name).toBe("InternalServerError");
    expect(e.$fault).toBe("server");
    expect(e.$metadata).toMatchObject({ httpStatusCode: 500, attempts: 4 });
    expect(seen).toHaveLength(4);

    // a transaction's retry carries the same idempotency token (the SDK fills it once)
    seen = [];
    replies.push({ status: 503, body: awsError("ServiceUnavailable", "later") }, { body: {} });
    await doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: "t", Item: { pk: "A" } } }] }));
    expect(seen).toHaveLength(2);
    expect(seen[0]!.body.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!.body.ClientRequestToken).toBe(seen[0]!.body.ClientRequestToken);
    doc.destroy();
  });

  it("tells observers each call's operation and document input, and how it ended", async () => {
    const doc = client();
    const log: { call: DbCall; outcome?: DbCallOutcome }[] = [];
    const stop = doc.observe((call) => {
      const entry: { call: DbCall; outcome?: DbCallOutcome } = { call };
      log.push(entry);
      return { headers: { "x-test-trace": "abc" }, done: (o) => (entry.outcome = o) };
    });
    replies.push({ body: { Item: marshall({ pk: "A", v: 2 }) } }, { status: 400, body: awsError("ConditionalCheckFailedException", "no") });
    await doc.send(new GetCommand({ TableName: "t", Key: { pk: "A" } }));
    await doc.send(new PutCommand({ TableName: "t", Item: { pk: "A" }, ConditionExpression: "attribute_not_exists(pk)" })).catch(() => undefined);
    expect(seen[0]!.headers["x-test-trace"]).toBe("abc");
    expect(log.map((l) => l.call)).toEqual([
      { operation: "GetItem", input: { TableName: "t", Key: { pk: "A" } } },
      { operation: "PutItem", input: { TableName: "t", Item: { pk: "A" }, ConditionExpression: "attribute_not_exists(pk)" } },
    ]);
    expect(log[0]!.outcome).toMatchObject({ output: { Item: { pk: "A", v: 2 } }, httpStatusCode: 200, requestId: "req-1", attempts: 1 });
    expect(log[1]!.outcome?.error).toBeInstanceOf(ConditionalCheckFailedException);
    expect(log[1]!.outcome).toMatchObject({ httpStatusCode: 400, attempts: 1 });
    stop();
    await doc.send(new GetCommand({ TableName: "t", Key: { pk: "A" } }));
    expect(log).toHaveLength(2);
    doc.destroy();
  });

  it("sends a command it does not speak through the SDK's DocumentClient", async () => {
    const doc = client();
    replies.push({ body: { Items: [marshall({ pk: "A" })] } });
    const out = await doc.send(new ExecuteStatementCommand({ Statement: "SELECT * FROM t WHERE pk = ?", Parameters: ["A"] }));
    expect(seen[0]!.headers["x-amz-target"]).toBe("DynamoDB_20120810.ExecuteStatement");
    expect(seen[0]!.body.Parameters).toEqual([{ S: "A" }]);
    expect(out.Items).toEqual([{ pk: "A" }]);
    doc.destroy();
  });

  it("DYNAMODB_TRANSPORT=sdk: the SDK's DocumentClient behind the same port, seen by the same observers", async () => {
    const doc = createDocClient({ transport: "sdk", region: "sa-east-1", endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "secret" } });
    expect(doc).toBeInstanceOf(SdkDocClient);
    const log: { call: DbCall; outcome?: DbCallOutcome }[] = [];
    doc.observe((call) => {
      const entry: { call: DbCall; outcome?: DbCallOutcome } = { call };
      log.push(entry);
      return { done: (o) => (entry.outcome = o) };
    });
    replies.push({ body: { Item: marshall({ pk: "A", v: 2 }) } }, { status: 400, body: awsError("ConditionalCheckFailedException", "no") });
    expect((await doc.send(new GetCommand({ TableName: "t", Key: { pk: "A" } }))).Item).toEqual({ pk: "A", v: 2 });
    await expect(doc.send(new PutCommand({ TableName: "t", Item: { pk: "A" }, ConditionExpression: "attribute_not_exists(pk)" }))).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    expect(seen.map((x) => x.headers["x-amz-target"])).toEqual(["DynamoDB_20120810.GetItem", "DynamoDB_20120810.PutItem"]);
    expect(log.map((l) => l.call)).toEqual([
      { operation: "GetItem", input: { TableName: "t", Key: { pk: "A" } } },
      { operation: "PutItem", input: { TableName: "t", Item: { pk: "A" }, ConditionExpression: "attribute_not_exists(pk)" } },
    ]);
    expect(log[0]!.outcome).toMatchObject({ output: { Item: { pk: "A", v: 2 } }, httpStatusCode: 200, attempts: 1 });
    expect(log[1]!.outcome?.error).toBeInstanceOf(ConditionalCheckFailedException);
    doc.destroy();
  });
});
