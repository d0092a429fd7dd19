import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../../platform/db/client";
import { companyPk, pad } from "../../../platform/db/keys";
import { mapItem } from "../../../platform/db/map-item";
import type { MetaProvider } from "../../../platform/channels/meta/meta-webhook.mapper";

/**
 * A Messenger / Instagram connection's provider settings (docs/adr/0090), beside the connection record in the
 * company's partition. Secrets (pageAccessToken, appSecret) are stored sealed by the SecretBox. The webhook URL
 * carries `hookId` (random): a platform-level index item (METAHOOK#) finds the connection and its company without
 * trusting anything in the request, as the Cloud API's does.
 */
export type MetaRecord = {
  whatsappId: number;
  provider: MetaProvider;
  /** the Facebook page id (Messenger) or the Instagram professional account id */
  pageId: string;
  /** sealed */
  pageAccessToken: string;
  /** sealed */
  appSecret: string;
  verifyToken: string;
  /** Meta's Graph API, or the local stand-in */
  graphApiUrl: string;
  hookId: string;
  createdAt: string;
  updatedAt: string;
};

const key = (companyId: number, whatsappId: number) => ({ pk: companyPk(companyId), sk: `META#${pad(whatsappId)}` });
const hookKey = (hookId: string) => ({ pk: `METAHOOK#${hookId}`, sk: "METAHOOK" });
/** When the customer last wrote in a chat (the messaging window starts there). */
const windowKey = (companyId: number, whatsappId: number, chatJid: string) => ({ pk: companyPk(companyId), sk: `METAWIN#${pad(whatsappId)}#${chatJid}` });

const toRecord = mapItem<MetaRecord>({
  whatsappId: true,
  provider: true,
  pageId: true,
  pageAccessToken: true,
  appSecret: true,
  verifyToken: true,
  graphApiUrl: true,
  hookId: true,
  createdAt: true,
  updatedAt: true,
});

export const createMetaRepository = (db: Db) => {
  const T = db.tableName;
  const repo = {
    async get(companyId: number, whatsappId: number): Promise<MetaRecord | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, whatsappId) }));
      return out.Item ? toRecord(out.Item) : null;
    },
    async put(companyId: number, record: MetaRecord, previousHookId?: string | null): Promise<void> {
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...key(companyId, record.whatsappId), entity: "metaChannel", companyId, ...record } }));
      if (previousHookId !== record.hookId) {
        await db.doc.send(new PutCommand({ TableName: T, Item: { ...hookKey(record.hookId), entity: "metaHook", companyId, whatsappId: record.whatsappId } }));
        if (previousHookId) await db.doc.send(new DeleteCommand({ TableName: T, Key: hookKey(previousHookId) }));
      }
    },
    async remove(companyId: number, whatsappId: number): Promise<void> {
      const current = await repo.get(companyId, whatsappId);
      if (!current) return;
      await db.doc.send(new DeleteCommand({ TableName: T, Key: hookKey(current.hookId) }));
      await db.doc.send(new DeleteCommand({ TableName: T, Key: key(companyId, whatsappId) }));
    },
    /** The connection a webhook URL belongs to (the company comes from our index, never from the request). */
    async byHook(hookId: string): Promise<{ companyId: number; whatsappId: number } | null> {
      if (!/^[\w-]{16,64}$/.test(hookId)) return null;
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: hookKey(hookId) }));
      return out.Item ? { companyId: Number(out.Item.companyId), whatsappId: Number(out.Item.whatsappId) } : null;
    },
    /** Moves the chat's last customer message time forward (never back: webhooks may arrive out of order). */
    async touchWindow(companyId: number, whatsappId: number, chatJid: string, at: string): Promise<void> {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: windowKey(companyId, whatsappId, chatJid),
            UpdateExpression: "SET entity = :e, lastInboundAt = :t",
            ConditionExpression: "attribute_not_exists(lastInboundAt) OR lastInboundAt < :t",
            ExpressionAttributeValues: { ":e": "metaWindow", ":t": at },
          }),
        );
      } catch (e) {
        if ((e as Error).name !== "ConditionalCheckFailedException") throw e;
      }
    },
    async lastInboundAt(companyId: number, whatsappId: number, chatJid: string): Promise<string | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: windowKey(companyId, whatsappId, chatJid) }));
      return typeof out.Item?.lastInboundAt === "string" ? out.Item.lastInboundAt : null;
    },
  };
  return repo;
};
export type MetaRepository = ReturnType<typeof createMetaRepository>;
