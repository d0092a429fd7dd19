import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

export type Db = { doc: DynamoDBDocumentClient; tableName: string };

export const createDb = (opts: { tableName: string; endpoint?: string; region: string }): Db => {
  const client = new DynamoDBClient({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
  });
  return { tableName: opts.tableName, doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }) };
};

export const isConditionFailure = (err: unknown) =>
  err instanceof Error && (err.name === "ConditionalCheckFailedException" || err.name === "TransactionCanceledException");
