import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { ConnectionStatus } from "@atende/shared/constants/business";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { stripKeys } from "../../platform/db/strip";

export type Whatsapp = {
  id: number;
  companyId: number;
  name: string;
  number: string;
  status: ConnectionStatus;
  isDefault: boolean;
  /** "simulator" or "baileys": which session-host provider drives it */
  channel: "simulator" | "baileys";
  provider: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  timeToTransfer: number | null;
  transferQueueId: number | null;
  promptId: number | null;
  integrationId: number | null;
  queueIds: number[];
  token: string;
  qrcode: string;
  retries: number;
  createdAt: string;
  updatedAt: string;
};
export type NewWhatsapp = Omit<Whatsapp, "id" | "companyId" | "createdAt" | "updatedAt">;

const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `WHATSAPP#${pad(id)}` });
const toWhatsapp = (item: Record<string, unknown>) => stripKeys(item) as unknown as Whatsapp;

export const createWhatsappsRepository = (db: Db) => ({
  async create(companyId: number, input: NewWhatsapp, now: Date): Promise<Whatsapp> {
    const id = await nextId(db, companyId, "whatsapp");
    const w: Whatsapp = { ...input, id, companyId, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...key(companyId, id), entity: "whatsapp", ...w } }));
    return w;
  },
  async listByCompany(companyId: number): Promise<Whatsapp[]> {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
        ExpressionAttributeValues: { ":pk": companyPk(companyId), ":p": "WHATSAPP#" },
      }),
    );
    return (out.Items ?? []).map(toWhatsapp);
  },
});
export type WhatsappsRepository = ReturnType<typeof createWhatsappsRepository>;
