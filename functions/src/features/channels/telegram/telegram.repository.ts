import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../../platform/db/client";
import { companyPk } from "../../../platform/db/keys";
import { mapItem } from "../../../platform/db/map-item";
import { createHookedSettings } from "../channel-store";

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
    // settings TELEGRAM#<whatsappId>, webhook index TGHOOK#<hookId> (../channel-store.ts)
    ...createHookedSettings(db, { settings: "TELEGRAM", hook: "TGHOOK", entity: "telegram", hookEntity: "telegramHook" }, toRecord),
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
