import * as z from "zod";

/** Telegram's Bot API base URL; the local stand-in (infra/local/src/stand-ins/telegram) is given as `telegramApiUrl`. */
export const DEFAULT_TELEGRAM_API_URL = "https://api.telegram.org";

/** A bot token as BotFather gives it: `<bot id>:<35+ characters>`. */
export const TELEGRAM_BOT_TOKEN = /^\d{3,20}:[A-Za-z0-9_-]{20,100}$/;

/** The Telegram connection's fields (`provider: "telegram"`). `botToken` is a secret (sealed, masked). */
export const telegramFieldsSchema = z.object({
  provider: z.literal("telegram"),
  botToken: z.string().trim().max(200).default(""),
  telegramApiUrl: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().url().max(300).default(DEFAULT_TELEGRAM_API_URL)),
});
export type TelegramFields = z.infer<typeof telegramFieldsSchema>;

/** GET /whatsapp/{id} of a Telegram connection (admins): the settings with the token masked and what getMe said. */
export type TelegramConnectionView = {
  botToken: string;
  telegramApiUrl: string;
  webhookUrl: string;
  botUsername: string | null;
  botName: string | null;
  checkedAt: string | null;
};
