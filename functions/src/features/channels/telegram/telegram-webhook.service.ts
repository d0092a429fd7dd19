import { createHash, timingSafeEqual } from "node:crypto";
import { MAX_MESSAGE_MEDIA_BYTES } from "@atende/shared/constants/business";
import { METRIC } from "@atende/shared/contracts/metric-names";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import { sniffMedia, withDeclaredAv } from "@atende/shared/domain/media/media-sniff";
import type { Logger } from "../../../platform/logger";
import { noMetrics, recordMessageIn, type Metrics } from "../../../platform/metrics";
import { chatOfEvent, type InboundQueue } from "../../../platform/queues/inbound-queue.port";
import type { SecretBox } from "../../../platform/secrets/secret-box.port";
import { mediaKeyFor, type MediaStore } from "../../../platform/storage/media-store.port";
import type { TelegramBotClient, TgUpdate } from "../../../platform/channels/telegram/telegram-bot.client";
import { mapTelegramUpdate, type PendingFile } from "../../../platform/channels/telegram/telegram-update.mapper";
import type { TelegramRepository } from "./telegram.repository";
import type { TelegramSettings } from "./telegram.service";

export type TelegramWebhookOutcome = { status: 200; enqueued: number } | { status: 400 | 403 | 404 };

/** Constant-time equality of two secrets of any length (their digests are compared). */
export const sameSecret = (a: string, b: string) => {
  const h = (s: string) => createHash("sha256").update(s).digest();
  return Boolean(a) && Boolean(b) && timingSafeEqual(h(a), h(b));
};

/**
 * The public webhook of one Telegram connection (`/api/channels/telegram/webhook/{hookId}`): the connection (and
 * its company) from our index by hookId, the `X-Telegram-Bot-Api-Secret-Token` compared in constant time with the
 * secret given to setWebhook (wrong or missing: 403, nothing stored), the update mapped (mapTelegramUpdate), a
 * photo, document or voice note downloaded (getFile, then the bytes; the size limit and the media sniffer as for
 * WhatsApp media) and the event put on the inbound queue: the same pipeline as a WhatsApp message.
 */
export const createTelegramWebhookService = (deps: {
  repo: TelegramRepository;
  secrets: SecretBox;
  inbound: InboundQueue;
  media: MediaStore;
  bot: (s: TelegramSettings) => TelegramBotClient;
  logger: Logger;
  metrics?: Metrics;
  maxBytes?: number;
}) => {
  const { repo, secrets, inbound, logger } = deps;
  const metrics = deps.metrics ?? noMetrics;
  const limit = deps.maxBytes ?? MAX_MESSAGE_MEDIA_BYTES;

  const withFile = async (event: InboundEvent, file: PendingFile, settings: TelegramSettings): Promise<InboundEvent> => {
    if (event.type !== "message") return event;
    const got = await deps.bot(settings).downloadFile(file.fileId, limit);
    if ("tooLarge" in got) {
      logger.warn("telegram: media over the limit not stored", { companyId: event.companyId, size: got.tooLarge });
      return { ...event, message: { ...event.message, mediaRefused: { reason: "tooLarge", size: got.tooLarge, limit } } };
    }
    // the declared type is never trusted: the bytes decide (shared media sniffer, ADR 0008)
    const name = file.filename ?? got.filePath.split("/").pop() ?? "file";
    const sniffed = withDeclaredAv(sniffMedia(got.bytes, name), file.mimetype);
    const filename = file.filename ?? `${event.message.type}-${event.message.id}.${sniffed.ext}`;
    const key = mediaKeyFor(event.companyId, event.message.id, filename);
    await deps.media.put(key, got.bytes, sniffed.mime);
    return { ...event, message: { ...event.message, media: { key, mimetype: sniffed.mime, filename, size: got.bytes.byteLength } } };
  };

  return {
    async receive(hookId: string, rawBody: string, secretHeader: string | null | undefined): Promise<TelegramWebhookOutcome> {
      const ref = await repo.byHook(hookId);
      const rec = ref && (await repo.get(ref.companyId, ref.whatsappId));
      if (!ref || !rec) return { status: 404 };
      if (!sameSecret(secretHeader ?? "", await secrets.open(rec.secretToken))) {
        logger.warn("telegram webhook: wrong secret token", { companyId: ref.companyId, whatsappId: ref.whatsappId, sent: Boolean(secretHeader) });
        metrics.count(METRIC.telegramSecretFailures);
        return { status: 403 };
      }
      let update: TgUpdate;
      try {
        update = JSON.parse(rawBody) as TgUpdate;
      } catch {
        return { status: 400 };
      }
      const mapped = mapTelegramUpdate(update, ref);
      if ("skipped" in mapped) {
        logger.info("telegram webhook: update not mapped", { companyId: ref.companyId, kind: mapped.skipped });
        return { status: 200, enqueued: 0 };
      }
      const settings = { botToken: await secrets.open(rec.botToken), telegramApiUrl: rec.telegramApiUrl };
      const event = mapped.file ? await withFile(mapped.event, mapped.file, settings) : mapped.event;
      await inbound.put(event, chatOfEvent(event));
      if (event.type === "message") recordMessageIn(metrics, "telegram");
      return { status: 200, enqueued: 1 };
    },
  };
};
export type TelegramWebhookService = ReturnType<typeof createTelegramWebhookService>;
