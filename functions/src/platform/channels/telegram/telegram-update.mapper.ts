import type { InboundEvent, WaMessage } from "@atende/shared/contracts/queue-messages";
import { channelJid } from "@atende/shared/domain/channels/channel-providers";
import type { TgMessage, TgUpdate } from "./telegram-bot.client";

/** Our id of a Telegram message: the chat and Telegram's message id (unique per chat). */
export const telegramMessageId = (chatId: number | string, messageId: number) => `tg-${chatId}-${messageId}`;
export const parseTelegramMessageId = (id: string): { chatId: string; messageId: number } | null => {
  const m = /^tg-(-?\d+)-(\d+)$/.exec(id);
  return m ? { chatId: m[1]!, messageId: Number(m[2]) } : null;
};

/** A file the message carries, still at Telegram (the webhook downloads it: getFile, then the bytes). */
export type PendingFile = { fileId: string; mimetype: string; filename?: string };
export type MappedUpdate = { event: InboundEvent; file?: PendingFile } | { skipped: string };

const vcard = (c: NonNullable<TgMessage["contact"]>) =>
  c.vcard ?? ["BEGIN:VCARD", "VERSION:3.0", `N:${c.last_name ?? ""};${c.first_name};;;`, `FN:${[c.first_name, c.last_name].filter(Boolean).join(" ")}`, `TEL;type=CELL:${c.phone_number}`, "END:VCARD"].join("\n");

/**
 * One Telegram update as an inbound event of the common pipeline (docs/adr/0088): private chats only, the chat as
 * `<userId>@telegram`, the sender's name and username; a photo, document or voice note named as a pending file;
 * an edited message as a `message.update` with its new text. Stamped with the connection the webhook URL names,
 * never with anything from the body.
 */
export const mapTelegramUpdate = (update: TgUpdate, conn: { companyId: number; whatsappId: number }): MappedUpdate => {
  const edited = update.edited_message;
  const m = update.message ?? edited;
  if (!m) return { skipped: "update" };
  if (m.chat.type !== "private" || !m.from || m.from.is_bot) return { skipped: `chat:${m.chat.type}` };
  const chatJid = channelJid("telegram", String(m.chat.id));
  const base = { eventId: `tg-${update.update_id}`, companyId: conn.companyId, whatsappId: conn.whatsappId };
  const id = telegramMessageId(m.chat.id, m.message_id);
  if (edited) return { event: { ...base, type: "message.update", messageId: id, chatJid, body: edited.text ?? edited.caption ?? "" } };
  const name = [m.from.first_name, m.from.last_name].filter(Boolean).join(" ");
  const message: WaMessage = {
    id,
    chatJid,
    fromMe: false,
    isGroup: false,
    sender: { jid: chatJid, pushName: name, ...(m.from.username ? { username: m.from.username } : {}) },
    type: "chat",
    body: m.text ?? m.caption ?? "",
    isForwarded: false,
    timestamp: m.date,
    ...(m.reply_to_message ? { quotedId: telegramMessageId(m.chat.id, m.reply_to_message.message_id) } : {}),
  };
  let file: PendingFile | undefined;
  if (m.photo?.length) {
    const largest = m.photo.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
    message.type = "image";
    file = { fileId: largest.file_id, mimetype: "image/jpeg" };
  } else if (m.voice) {
    message.type = "audio";
    file = { fileId: m.voice.file_id, mimetype: m.voice.mime_type ?? "audio/ogg" };
  } else if (m.document || m.audio) {
    const d = (m.document ?? m.audio)!;
    message.type = m.audio ? "audio" : "document";
    file = { fileId: d.file_id, mimetype: d.mime_type ?? "application/octet-stream", ...(d.file_name ? { filename: d.file_name } : {}) };
  } else if (m.location) {
    message.type = "locationMessage";
    message.body = `|https://maps.google.com/maps?q=${m.location.latitude},${m.location.longitude}|`;
  } else if (m.contact) {
    message.type = "contactMessage";
    message.body = vcard(m.contact);
  } else if (m.text === undefined) return { skipped: "message type" };
  return { event: { ...base, type: "message", message }, ...(file ? { file } : {}) };
};
