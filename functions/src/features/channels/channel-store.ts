import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { companyPk, pad } from "../../platform/db/keys";

/**
 * What the channels' repositories (Cloud API, Messenger/Instagram, Telegram; docs/adr/0088, 0095) share, in one place:
 *
 * - `hookedSettings`: a connection's provider settings beside its record in the company's partition
 *   (`<SETTINGS>#<whatsappId>`) and the platform-level index of its webhook URL (`<HOOK>#<hookId>`), which finds the
 *   connection and its company without trusting anything in the request. `put` moves the index when the hookId
 *   changes; `remove` drops both.
 * - `chatWindow`: when the customer last wrote in a chat (`<WIN>#<whatsappId>#<chatJid>`), the start of the provider's
 *   messaging window; moved forward only (webhooks may arrive out of order).
 */
export type HookRef = { companyId: number; whatsappId: number };

export const createHookedSettings = <R extends { whatsappId: number; hookId: string }>(
  db: Db,
  names: { settings: string; hook: string; entity: string; hookEntity: string },
  toRecord: (item: Record<string, unknown>) => R,
) => {
  const T = db.tableName;
  const key = (companyId: number, whatsappId: number) => ({ pk: companyPk(companyId), sk: `${names.settings}#${pad(whatsappId)}` });
  const hookKey = (hookId: string) => ({ pk: `${names.hook}#${hookId}`, sk: names.hook });
  const store = {
    async get(companyId: number, whatsappId: number): Promise<R | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, whatsappId) }));
      return out.Item ? toRecord(out.Item) : null;
    },
    /** Writes the settings and (when new or changed) the webhook index item. */
    async put(companyId: number, record: R, previousHookId?: string | null): Promise<void> {
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...key(companyId, record.whatsappId), entity: names.entity, companyId, ...record } }));
      if (previousHookId !== record.hookId) {
        await db.doc.send(new PutCommand({ TableName: T, Item: { ...hookKey(record.hookId), entity: names.hookEntity, companyId, whatsappId: record.whatsappId } }));
        if (previousHookId) await db.doc.send(new DeleteCommand({ TableName: T, Key: hookKey(previousHookId) }));
      }
    },
    /** Drops the settings and their webhook index item; answers whether there were any. */
    async remove(companyId: number, whatsappId: number): Promise<boolean> {
      const current = await store.get(companyId, whatsappId);
      if (!current) return false;
      await db.doc.send(new DeleteCommand({ TableName: T, Key: hookKey(current.hookId) }));
      await db.doc.send(new DeleteCommand({ TableName: T, Key: key(companyId, whatsappId) }));
      return true;
    },
    /** The connection a webhook URL belongs to (the company comes from our index, never from the request). */
    async byHook(hookId: string): Promise<HookRef | null> {
      if (!/^[\w-]{16,64}$/.test(hookId)) return null;
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: hookKey(hookId) }));
      return out.Item ? { companyId: Number(out.Item.companyId), whatsappId: Number(out.Item.whatsappId) } : null;
    },
  };
  return store;
};

export const createChatWindow = (db: Db, names: { prefix: string; entity: string }) => {
  const T = db.tableName;
  const windowKey = (companyId: number, whatsappId: number, chatJid: string) => ({ pk: companyPk(companyId), sk: `${names.prefix}#${pad(whatsappId)}#${chatJid}` });
  return {
    /** Moves the chat's last customer message time forward (never back: webhooks may arrive out of order). */
    async touchWindow(companyId: number, whatsappId: number, chatJid: string, at: string): Promise<void> {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: windowKey(companyId, whatsappId, chatJid),
            UpdateExpression: "SET entity = :e, lastInboundAt = :t",
            ConditionExpression: "attribute_not_exists(lastInboundAt) OR lastInboundAt < :t",
            ExpressionAttributeValues: { ":e": names.entity, ":t": at },
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
};
