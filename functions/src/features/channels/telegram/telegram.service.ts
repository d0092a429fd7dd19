import { randomBytes } from "node:crypto";
import { TELEGRAM_BOT_TOKEN, telegramFieldsSchema, type TelegramConnectionView, type TelegramFields } from "@atende/shared/domain/channels/telegram";
import { isMaskedSecret, maskSecret } from "@atende/shared/domain/prompts/prompt";
import { AppError } from "../../../platform/errors";
import type { Logger } from "../../../platform/logger";
import type { SecretBox } from "../../../platform/secrets/secret-box.port";
import type { TelegramBotClient } from "../../../platform/channels/telegram/telegram-bot.client";
import type { ProviderConnections } from "../../whatsapps/whatsapps.service";
import type { TelegramRecord, TelegramRepository } from "./telegram.repository";

export const TELEGRAM_WEBHOOK_PATH = "/api/channels/telegram/webhook";
const token = (bytes: number) => randomBytes(bytes).toString("base64url");

/** The bot's settings with the token opened, for the sender and the webhook's downloads. */
export type TelegramSettings = { botToken: string; telegramApiUrl: string };

/**
 * Telegram connections (docs/adr/0088): the form's fields checked (the Bot API URL by the outbound guard), the
 * bot token and the webhook's secret token sealed, and on every save `getMe` (the bot's name, CONNECTED) and
 * `setWebhook` with this connection's URL and secret. Implements what POST/PUT /whatsapp need of a channel.
 */
export const createTelegramService = (deps: {
  repo: TelegramRepository;
  secrets: SecretBox;
  bot: (s: TelegramSettings) => TelegramBotClient;
  clock: () => Date;
  logger: Logger;
  /** the public origin webhook URLs are built on (config PUBLIC_BASE_URL) */
  publicBaseUrl?: string;
  checkUrl?: (url: string) => Promise<void>;
}) => {
  const { repo, secrets, clock, logger } = deps;
  const webhookUrl = (rec: TelegramRecord, origin = "") => `${(deps.publicBaseUrl || origin).replace(/\/+$/, "")}${TELEGRAM_WEBHOOK_PATH}/${rec.hookId}`;
  const settingsOf = async (rec: TelegramRecord): Promise<TelegramSettings> => ({ botToken: await secrets.open(rec.botToken), telegramApiUrl: rec.telegramApiUrl });

  const service = {
    async parseFields(input: unknown, existing: boolean): Promise<TelegramFields> {
      const parsed = telegramFieldsSchema.safeParse(input);
      if (!parsed.success) throw new AppError("ERR_VALIDATION", undefined, 400);
      const f = parsed.data;
      const keep = !f.botToken || isMaskedSecret(f.botToken);
      if ((!existing && keep) || (!keep && !TELEGRAM_BOT_TOKEN.test(f.botToken))) throw new AppError("ERR_VALIDATION", { issues: [{ path: ["botToken"], message: keep ? "Required" : "Invalid" }] }, 400);
      await deps.checkUrl?.(f.telegramApiUrl);
      return f;
    },
    /** Stores the settings (token sealed; masked/empty keeps it), then getMe and setWebhook at Telegram. */
    async configure(companyId: number, whatsappId: number, f: TelegramFields, origin = ""): Promise<TelegramRecord> {
      const current = await repo.get(companyId, whatsappId);
      const now = clock().toISOString();
      const keep = !f.botToken || isMaskedSecret(f.botToken);
      const rec: TelegramRecord = {
        whatsappId,
        botToken: keep ? (current?.botToken ?? "") : await secrets.seal(f.botToken),
        telegramApiUrl: f.telegramApiUrl,
        secretToken: current?.secretToken ?? (await secrets.seal(token(32))),
        hookId: current?.hookId ?? token(24),
        botUsername: null,
        botName: null,
        checkedAt: null,
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
      };
      const bot = deps.bot(await settingsOf(rec));
      try {
        const me = await bot.getMe();
        await bot.setWebhook(webhookUrl(rec, origin), await secrets.open(rec.secretToken));
        Object.assign(rec, { botUsername: me.username ?? null, botName: me.first_name, checkedAt: now });
      } catch (err) {
        logger.warn("telegram: getMe/setWebhook failed", { companyId, whatsappId, error: (err as Error).message });
      }
      await repo.put(companyId, rec, current?.hookId ?? null);
      return rec;
    },
    async check(companyId: number, whatsappId: number): Promise<{ ok: true; number: string } | { ok: false; error: string }> {
      const rec = await repo.get(companyId, whatsappId);
      if (!rec) return { ok: false, error: "not configured" };
      if (rec.checkedAt && rec.botUsername) return { ok: true, number: `@${rec.botUsername}` };
      try {
        const me = await deps.bot(await settingsOf(rec)).getMe();
        return { ok: true, number: me.username ? `@${me.username}` : me.first_name };
      } catch (err) {
        return { ok: false, error: (err as Error).message };
      }
    },
    async view(companyId: number, whatsappId: number, origin: string): Promise<({ provider: "telegram" } & TelegramConnectionView) | null> {
      const rec = await repo.get(companyId, whatsappId);
      if (!rec) return null;
      return {
        provider: "telegram",
        botToken: maskSecret(await secrets.open(rec.botToken)),
        telegramApiUrl: rec.telegramApiUrl,
        webhookUrl: webhookUrl(rec, origin),
        botUsername: rec.botUsername,
        botName: rec.botName,
        checkedAt: rec.checkedAt,
      };
    },
    async remove(companyId: number, whatsappId: number): Promise<void> {
      const rec = await repo.get(companyId, whatsappId);
      if (!rec) return;
      await deps.bot(await settingsOf(rec)).deleteWebhook().catch((err: Error) => logger.warn("telegram: deleteWebhook failed", { companyId, whatsappId, error: err.message }));
      await repo.remove(companyId, whatsappId);
    },
    /** The bot token opened, for the sender and the webhook (null: not a Telegram connection). */
    async settings(companyId: number, whatsappId: number): Promise<TelegramSettings | null> {
      const rec = await repo.get(companyId, whatsappId);
      return rec ? settingsOf(rec) : null;
    },
  };
  const connections: ProviderConnections = {
    parseFields: (input, existing) => service.parseFields(input, existing),
    configure: (companyId, whatsappId, fields, origin) => service.configure(companyId, whatsappId, fields as TelegramFields, origin),
    check: (companyId, whatsappId) => service.check(companyId, whatsappId),
    view: (companyId, whatsappId, origin) => service.view(companyId, whatsappId, origin),
    remove: (companyId, whatsappId) => service.remove(companyId, whatsappId),
  };
  return { ...service, connections };
};
export type TelegramService = ReturnType<typeof createTelegramService>;
