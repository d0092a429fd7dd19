import { DeleteCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "@atende/session-host/platform/db";
import type { PairingStore } from "./network-types";

/** The simulated phones' linked devices, in the table (local runner): a restart keeps connections paired. */
const PK = "SIMULATOR#PAIRED";

export const createTablePairingStore = (db: Db): PairingStore => ({
  async load() {
    const out = await db.doc.send(new QueryCommand({ TableName: db.tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": PK } }));
    return (out.Items ?? []).map((i) => ({ companyId: i.companyId as number, whatsappId: i.whatsappId as number, number: i.number as string }));
  },
  async save(companyId, whatsappId, number) {
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { pk: PK, sk: `${companyId}#${whatsappId}`, companyId, whatsappId, number } }));
  },
  async remove(companyId, whatsappId) {
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: { pk: PK, sk: `${companyId}#${whatsappId}` } }));
  },
});
