import http from "node:http";
import type { AddressInfo } from "node:net";
import { GetCommand, PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LeanDocClient } from "@atende/shared/node/dynamo/lean-doc.client";
import { type XraySegment, type XraySubsegment, xrayDbObserver } from "./xray-db-observer";

type Recorded = { name: string; attributes: Record<string, unknown>; flags: string[]; closed?: { err?: unknown; remote?: boolean } };

const fakeSegment = (recorded: Recorded[]): XraySegment => {
  const sub = (name: string): XraySubsegment => {
    const r: Recorded = { name, attributes: {}, flags: [] };
    recorded.push(r);
    return {
      id: `sub${recorded.length}`,
      addAttribute: (n, v) => void (r.attributes[n] = v),
      addThrottleFlag: () => void r.flags.push("throttle"),
      addErrorFlag: () => void r.flags.push("error"),
      addFaultFlag: () => void r.flags.push("fault"),
      close: (err, remote) => void (r.closed = { err, remote }),
    };
  };
  return { ...sub("facade"), trace_id: "1-abc-def", addNewSubsegment: sub, addNewSubsegmentWithoutSampling: sub };
};

let server: http.Server;
let port = 0;
const traceHeaders: (string | undefined)[] = [];
const replies: { status: number; body: unknown }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    traceHeaders.push(req.headers["x-amzn-trace-id"] as string | undefined);
    req.resume();
    req.on("end", () => {
      const r = replies.shift() ?? { status: 200, body: {} };
      res.writeHead(r.status, { "x-amzn-requestid": "RID" });
      res.end(JSON.stringify(r.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("X-Ray for the lean DynamoDB transport", () => {
  it("gives each call a DynamoDB subsegment with the AWS metadata, the trace header, and the error when one is thrown", async () => {
    const recorded: Recorded[] = [];
    const segment = fakeSegment(recorded);
    const doc = new LeanDocClient({ region: "sa-east-1", endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: "a", secretAccessKey: "b" } });
    doc.observe(xrayDbObserver(() => segment, "sa-east-1"));

    replies.push({ status: 200, body: {} });
    await doc.send(new GetCommand({ TableName: "atende", Key: { pk: "A", sk: "B" } }));
    replies.push({ status: 400, body: { __type: "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", message: "The conditional request failed" } });
    await expect(doc.send(new PutCommand({ TableName: "atende", Item: { pk: "A", sk: "B" }, ConditionExpression: "attribute_not_exists(pk)" }))).rejects.toThrow("The conditional request failed");
    replies.push({ status: 200, body: {} });
    await doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: "atende", Item: { pk: "X", sk: "1" } } }, { Delete: { TableName: "atende", Key: { pk: "Y", sk: "1" } } }] }));
    doc.destroy();

    const subs = recorded.filter((r) => r.name === "DynamoDB");
    expect(subs).toHaveLength(3);
    expect(traceHeaders).toEqual(["Root=1-abc-def;Parent=sub2;Sampled=1", "Root=1-abc-def;Parent=sub3;Sampled=1", "Root=1-abc-def;Parent=sub4;Sampled=1"]);
    expect(subs[0]).toMatchObject({
      attributes: { namespace: "aws", aws: { operation: "GetItem", region: "sa-east-1", request_id: "RID", retries: 1, table_name: "atende" }, http: { response: { status: 200 } } },
      flags: [],
      closed: { err: undefined },
    });
    expect(subs[1]).toMatchObject({ attributes: { aws: { operation: "PutItem", table_name: "atende" }, http: { response: { status: 400 } } }, flags: ["error"] });
    expect(subs[1]!.closed).toMatchObject({ err: { name: "ConditionalCheckFailedException", message: "The conditional request failed" }, remote: true });
    expect(subs[2]).toMatchObject({ attributes: { aws: { operation: "TransactWriteItems", table_names: ["atende"] } }, flags: [] });
  });

  it("records nothing and adds no header outside a segment", async () => {
    const doc = new LeanDocClient({ region: "sa-east-1", endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: "a", secretAccessKey: "b" } });
    doc.observe(xrayDbObserver(() => undefined, "sa-east-1"));
    traceHeaders.length = 0;
    await doc.send(new GetCommand({ TableName: "atende", Key: { pk: "A", sk: "B" } }));
    doc.destroy();
    expect(traceHeaders).toEqual([undefined]);
  });
});
