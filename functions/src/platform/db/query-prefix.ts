import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "./client";

/**
 * Every item of one partition whose sort key starts with `prefix`, following pages to the end.
 * Only for small, bounded sets (a company's users, queues, connections, tags ...), never for lists that grow.
 */
export const queryPrefix = async (db: Db, pk: string, prefix: string): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
        ExpressionAttributeValues: { ":pk": pk, ":p": prefix },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
};
