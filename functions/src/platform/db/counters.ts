import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "./client";
import { PLATFORM_PK, companyPk } from "./keys";

/** Next number of a per-company (or platform-wide, companyId null) atomic counter. */
export const nextId = async (db: Db, companyId: number | null, entity: string): Promise<number> => {
  const out = await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: { pk: companyId === null ? PLATFORM_PK : companyPk(companyId), sk: `COUNTER#${entity}` },
      UpdateExpression: "ADD #v :one",
      ExpressionAttributeNames: { "#v": "value" },
      ExpressionAttributeValues: { ":one": 1 },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  return Number(out.Attributes?.value);
};

/** Reserves `count` consecutive numbers of a per-company counter in one write (bulk imports); returns them in order. */
export const nextIds = async (db: Db, companyId: number, entity: string, count: number): Promise<number[]> => {
  if (count <= 0) return [];
  const out = await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: { pk: companyPk(companyId), sk: `COUNTER#${entity}` },
      UpdateExpression: "ADD #v :n",
      ExpressionAttributeNames: { "#v": "value" },
      ExpressionAttributeValues: { ":n": count },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  const last = Number(out.Attributes?.value);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
};
