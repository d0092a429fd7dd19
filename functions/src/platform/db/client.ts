import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { traced } from "../tracer";

export type Db = { doc: DynamoDBDocumentClient; tableName: string };

/**
 * The SDK's logger middleware builds a "sensitive-filtered" copy of every call's input and whole output (each item
 * read, walked through the command's schema) to hand to `logger.info` — which is a no-op: we give the client no
 * logger (our logger records what matters itself). That copy was ~5% of a ticket list's CPU (47 items per request,
 * docs/adr/0046): the middleware is taken off the client's stack. A logger given later would log nothing.
 */
export const withoutSdkLogging = <C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C => {
  client.middlewareStack.remove("loggerMiddleware");
  return client;
};

export const createDb = (opts: { tableName: string; endpoint?: string; region: string }): Db => {
  const client = traced(
    withoutSdkLogging(
      new DynamoDBClient({
        region: opts.region,
        ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
      }),
    ),
  );
  return {
    tableName: opts.tableName,
    doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
  };
};
