import { createDocClient, type DocClient } from "@atende/shared/node/dynamo/lean-doc.client";
import { tracedDb } from "../tracer";

/**
 * The DynamoDB port: `doc.send(new QueryCommand({...}))` with `@aws-sdk/lib-dynamodb` commands, answered by the
 * lean transport (docs/adr/0054: the DocumentClient's marshalling, the SDK's SigV4, credentials, retries and
 * exception classes, without the SDK client's per-call middleware), `doc.observe(...)` to watch the calls.
 */
export type Db = { doc: DocClient; tableName: string };

export const createDb = (opts: { tableName: string; endpoint?: string; region: string; transport?: "lean" | "sdk" }): Db => ({
  tableName: opts.tableName,
  doc: tracedDb(
    createDocClient({
      region: opts.region,
      transport: opts.transport,
      ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
    }),
    opts.region,
  ),
});
