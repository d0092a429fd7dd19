import { randomUUID } from "node:crypto";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import { parseChannelJid } from "@atende/shared/domain/channels/channel-providers";
import type { ChannelCommand } from "../../../platform/channels/channel.port";
import type { Logger } from "../../../platform/logger";
import { noMetrics, recordMessageOut, recordSendFailure, type Metrics } from "../../../platform/metrics";
import type { MediaStore } from "../../../platform/storage/media-store.port";
import { TelegramApiError, type TelegramBotClient, type TgMessage } from "../../../platform/channels/telegram/telegram-bot.client";
import type { TelegramRepository } from "./telegram.repository";
import type { TelegramSettings } from "./telegram.service";

const vcardField = (vcard: string, field: string) => new RegExp(`^${field}[^:]*:(.*)$`, "mi").exec(vcard)?.[1]?.trim() ?? "";

/**
 * Runs the inbox's commands on a Telegram connection: text by sendMessage, an image by sendPhoto, a voice note or
 * audio by sendVoice, any other file by sendDocument, a vCard by sendContact, an edit by editMessageText (of a
 * message we sent: Telegram's id is remembered by ours). The outcome goes back as a `command.result` inbound event.
 * Runs as a job (never in the attendant's request); a send Telegram's flood control refused (429) goes back to the
 * queue for the wait it asks for.
 */
/** One Telegram command on the jobs queue and how many times Telegram's flood control refused it. */
export type TelegramJob = { command: ChannelCommand; attempt: number };
/** Refusals by flood control (429: nothing was sent) before the send is reported failed. */
const MAX_ATTEMPTS = 5;

export const createTelegramSender = (deps: {
  /** runs the job again after `delaySeconds` (the jobs queue with a delay) */
  later(job: TelegramJob, delaySeconds: number): Promise<void>;
  settings(companyId: number, whatsappId: number): Promise<TelegramSettings | null>;
  bot: (s: TelegramSettings) => TelegramBotClient;
  repo: Pick<TelegramRepository, "rememberSent" | "sentId">;
  media: MediaStore;
  report(event: InboundEvent): Promise<void>;
  clock: () => Date;
  logger: Logger;
  metrics?: Metrics;
}) => {
  const metrics = deps.metrics ?? noMetrics;
  const result = (command: ChannelCommand, ok: boolean, error?: string): InboundEvent => ({
    eventId: `tg-result-${randomUUID()}`,
    companyId: command.companyId,
    whatsappId: command.whatsappId,
    type: "command.result",
    commandId: command.commandId,
    ...(command.type === "send" ? { messageId: command.messageId } : {}),
    ok,
    ...(error ? { error } : {}),
  });
  const send = async (bot: TelegramBotClient, chatId: string, command: Extract<ChannelCommand, { type: "send" }>): Promise<TgMessage> => {
    if (command.media) {
      const stored = await deps.media.get(command.media.key);
      if (!stored) throw new Error("media not found");
      const file = { bytes: stored.body, mimetype: command.media.mimetype, filename: command.media.filename ?? "file" };
      if (command.media.kind === "image") return bot.sendPhoto(chatId, file, command.body);
      if (command.media.kind === "audio") return bot.sendVoice(chatId, file, command.body);
      return bot.sendDocument(chatId, file, command.body);
    }
    if (command.body.startsWith("BEGIN:VCARD")) return bot.sendContact(chatId, vcardField(command.body, "TEL"), vcardField(command.body, "FN") || "Contato");
    const quoted = command.quotedId ? await deps.repo.sentId(command.companyId, command.quotedId) : null;
    return bot.sendMessage(chatId, command.body, quoted ?? undefined);
  };
  return {
    /** Runs one job: `later` when flood control sent it back to the queue, else `settled` (sent, or reported failed). */
    async run(job: TelegramJob): Promise<"settled" | "later"> {
      const { command } = job;
      if (command.type !== "send" && command.type !== "edit") return "settled";
      const target = parseChannelJid(command.chatJid);
      const settings = await deps.settings(command.companyId, command.whatsappId);
      try {
        if (!settings || target?.channel !== "telegram") throw new Error("not a Telegram chat");
        const bot = deps.bot(settings);
        if (command.type === "send") {
          const sent = await send(bot, target.userId, command);
          await deps.repo.rememberSent(command.companyId, command.messageId, sent.message_id, deps.clock());
          recordMessageOut(metrics, "telegram");
        } else {
          const id = await deps.repo.sentId(command.companyId, command.targetId);
          if (!id) throw new Error("message not sent by this bot");
          await bot.editMessageText(target.userId, id, command.body);
        }
        await deps.report(result(command, true));
        return "settled";
      } catch (err) {
        // flood control refused it (nothing was sent): again after the wait Telegram asks for, a few times
        if (err instanceof TelegramApiError && err.status === 429 && job.attempt + 1 < MAX_ATTEMPTS) {
          deps.logger.warn("telegram: flood control, retrying", { companyId: command.companyId, whatsappId: command.whatsappId, retryAfter: err.retryAfter, attempt: job.attempt });
          await deps.later({ command, attempt: job.attempt + 1 }, Math.min(900, Math.max(1, Math.ceil(err.retryAfter ?? 2 ** (job.attempt + 1)))));
          return "later";
        }
        const code = err instanceof TelegramApiError ? `telegram:${err.status}` : "telegram:error";
        recordSendFailure(metrics, code, "telegram");
        deps.logger.warn("telegram: command failed", { companyId: command.companyId, whatsappId: command.whatsappId, type: command.type, error: (err as Error).message });
        await deps.report(result(command, false, (err as Error).message.slice(0, 200)));
        return "settled";
      }
    },
  };
};
