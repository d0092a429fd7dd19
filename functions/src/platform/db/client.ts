import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { traced } from "../tracer";

export type Db = { doc: DynamoDBDocumentClient; tableName: string };

export const createDb = (opts: { tableName: string; endpoint?: string; region: string }): Db => {
  const client = traced(new DynamoDBClient({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
  }));
  return {
    tableName: opts.tableName,
    doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
  };
};
