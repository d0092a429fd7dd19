import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../../platform/db/client";
import { companyPk, pad } from "../../../platform/db/keys";
import { mapItem } from "../../../platform/db/map-item";

/**
 * A Telegram connection's settings, beside the connection record in the company's partition. `botToken` and
 * `secretToken` are stored sealed by the SecretBox. The webhook URL carries `hookId` (random): a platform-level
 * index item finds the connection (and its company) without trusting anything in the request.
 */
export type TelegramRecord = {
  whatsappId: number;
  botToken: string;
  telegramApiUrl: string;
  /** the `secret_token` given to setWebhook (sealed): Telegram sends it back in X-Telegram-Bot-Api-Secret-Token */
  secretToken: string;
  hookId: string;
  botUsername: string | null;
  botName: string | null;
  checkedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

const key = (companyId: number, whatsappId: number) => ({ pk: companyPk(companyId), sk: `TELEGRAM#${pad(whatsappId)}` });
const hookKey = (hookId: string) => ({ pk: `TGHOOK#${hookId}`, sk: "TGHOOK" });
/** Telegram's message id of a message we sent (to edit it later), by our id. */
const sentKey = (companyId: number, ourId: string) => ({ pk: companyPk(companyId), sk: `TGSENT#${ourId}` });
const SENT_TTL_SECONDS = 60 * 24 * 3600;

const toRecord = mapItem<TelegramRecord>({
  whatsappId: true,
  botToken: true,
  telegramApiUrl: true,
  secretToken: true,
  hookId: true,
  botUsername: true,
  botName: true,
  checkedAt: true,
  createdAt: true,
  updatedAt: true,
});

export const createTelegramRepository = (db: Db) => {
  const T = db.tableName;
  const repo = {
    async get(companyId: number, whatsappId: number): Promise<TelegramRecord | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, whatsappId) }));
      return out.Item ? toRecord(out.Item) : null;
    },
    async put(companyId: number, record: TelegramRecord, previousHookId: string | null): Promise<void> {
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...key(companyId, record.whatsappId), entity: "telegram", companyId, ...record } }));
      if (previousHookId !== record.hookId) {
        await db.doc.send(new PutCommand({ TableName: T, Item: { ...hookKey(record.hookId), entity: "telegramHook", companyId, whatsappId: record.whatsappId } }));
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
    async rememberSent(companyId: number, ourId: string, telegramMessageId: number, now: Date): Promise<void> {
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...sentKey(companyId, ourId), entity: "telegramSent", telegramMessageId, ttl: Math.floor(now.getTime() / 1000) + SENT_TTL_SECONDS } }));
    },
    async sentId(companyId: number, ourId: string): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: sentKey(companyId, ourId) }));
      return out.Item ? Number(out.Item.telegramMessageId) : null;
    },
  };
  return repo;
};
export type TelegramRepository = ReturnType<typeof createTelegramRepository>;
