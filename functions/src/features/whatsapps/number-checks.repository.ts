import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";

/** Answers to checkNumber commands (number.checked events), kept an hour for whoever asked (by requestId). */
export type NumberCheck = { requestId: string; whatsappId: number; number: string; exists: boolean; jid: string | null; checkedAt: string };

const key = (companyId: number, requestId: string) => ({ pk: companyPk(companyId), sk: `NUMCHECK#${requestId}` });

export const createNumberChecksRepository = (db: Db) => ({
  async put(companyId: number, check: NumberCheck): Promise<void> {
    const ttl = Math.floor(new Date(check.checkedAt).getTime() / 1000) + 3600;
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(companyId, check.requestId), entity: "numberCheck", ...check, ttl } }));
  },
  async get(companyId: number, requestId: string): Promise<NumberCheck | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, requestId) }));
    if (!out.Item) return null;
    const { requestId: r, whatsappId, number, exists, jid, checkedAt } = out.Item as NumberCheck;
    return { requestId: r, whatsappId, number, exists, jid, checkedAt };
  },
});
export type NumberChecksRepository = ReturnType<typeof createNumberChecksRepository>;
