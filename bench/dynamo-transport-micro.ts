/**
 * Node CPU per DynamoDB call, the SDK's DocumentClient against the lean transport (docs/adr/0054), with the same
 * answers from a fake server in this process (its cost included; "bare http" is the floor: the server and a plain
 * node:http client). Load-independent enough to compare on a busy machine: CPU, not time, interleaved, two rounds.
 *   AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true npx tsx bench/dynamo-transport-micro.ts
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { LeanDocClient } from "@atende/shared/node/dynamo/lean-doc.client";
const item = (i: number) => marshall({ pk: "C#1#T", sk: `T#${i}`, id: `t${i}`, status: "open", contactId: "c" + i, lastMessage: "Olá, tudo bem? Quero saber do boleto", updatedAt: "2026-11-24T10:00:00.000Z", unreadMessages: 3, queueId: "q1", userId: "u1", tags: ["a", "b"], isGroup: false, version: 4 });
const bodies: Record<string, string> = {
  Query: JSON.stringify({ Items: Array.from({ length: 40 }, (_, i) => item(i)), Count: 40, ScannedCount: 40 }),
  GetItem: JSON.stringify({ Item: item(1) }),
  BatchGetItem: JSON.stringify({ Responses: { t: Array.from({ length: 20 }, (_, i) => item(i)) }, UnprocessedKeys: {} }),
};
const server = http.createServer((req, res) => { const op = String(req.headers["x-amz-target"]).split(".")[1]!; req.resume(); req.on("end", () => { res.writeHead(200, { "content-type": "application/x-amz-json-1.0", "x-amzn-requestid": "x" }); res.end(bodies[op]); }); });
await new Promise<void>((r) => server.listen(0, r));
const port = (server.address() as AddressInfo).port;
const endpoint = `http://127.0.0.1:${port}`;
const credentials = { accessKeyId: "a", secretAccessKey: "b" };
const client = new DynamoDBClient({ region: "us-east-1", endpoint, credentials });
client.middlewareStack.remove("loggerMiddleware");
const sdk = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
const lean = new LeanDocClient({ region: "us-east-1", endpoint, credentials });
const q = () => new QueryCommand({ TableName: "t", KeyConditionExpression: "pk = :p and begins_with(sk, :s)", ExpressionAttributeValues: { ":p": "C#1#T", ":s": "T#" }, Limit: 40 });
const g = () => new GetCommand({ TableName: "t", Key: { pk: "C#1#T", sk: "T#1" } });
const b = () => new BatchGetCommand({ RequestItems: { t: { Keys: Array.from({ length: 20 }, (_, i) => ({ pk: "C#1#T", sk: `T#${i}` })) } } });
const n = Number(process.env.N ?? 2000);
async function run(f: () => Promise<unknown>) {
  for (let i = 0; i < 300; i++) await f();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / n;
}
const out: Record<string, number[]> = {};
for (let round = 0; round < 2; round++) {
  for (const [name, mk] of [["Query40", q], ["GetItem", g], ["BatchGet20", b]] as const) {
    for (const [cname, c] of [["sdk", sdk], ["lean", lean]] as const) {
      const k = `${name} ${cname}`;
      (out[k] ??= []).push(await run(() => (c.send as (command: unknown) => Promise<unknown>)(mk())));
    }
  }
}
// the fake server's own cost per call, to subtract: a bare http.request with the same answers
const agent = new http.Agent({ keepAlive: true });
const bare = (op: string) => new Promise<void>((resolve, reject) => { const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/", agent, headers: { "x-amz-target": "DynamoDB_20120810." + op, "content-length": 2 } }, (res) => { res.resume(); res.on("end", () => resolve()); }); req.on("error", reject); req.end("{}"); });
for (const op of ["Query", "GetItem", "BatchGetItem"]) (out[`bare http ${op} (server + client floor)`] ??= []).push(await run(() => bare(op)));
for (const [k, v] of Object.entries(out)) console.log(k.padEnd(40), v.map((x) => x.toFixed(3)).join("  "), "ms CPU/call (incl. fake server)");
server.close(); agent.destroy(); lean.destroy(); client.destroy();
