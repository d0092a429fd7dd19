import type { GraphFetch } from "../cloud-api/graph-api.client";

/** Telegram's Bot API types this client reads (https://core.telegram.org/bots/api), the fields we use only. */
export type TgUser = { id: number; is_bot?: boolean; first_name: string; last_name?: string; username?: string };
export type TgPhotoSize = { file_id: string; file_unique_id: string; width: number; height: number; file_size?: number };
export type TgMessage = {
  message_id: number;
  date: number;
  edit_date?: number;
  chat: { id: number; type: string };
  from?: TgUser;
  text?: string;
  caption?: string;
  photo?: TgPhotoSize[];
  document?: { file_id: string; file_name?: string; mime_type?: string; file_size?: number };
  voice?: { file_id: string; duration: number; mime_type?: string; file_size?: number };
  audio?: { file_id: string; file_name?: string; mime_type?: string; file_size?: number };
  location?: { latitude: number; longitude: number };
  contact?: { phone_number: string; first_name: string; last_name?: string; user_id?: number; vcard?: string };
  reply_to_message?: { message_id: number };
};
export type TgUpdate = { update_id: number; message?: TgMessage; edited_message?: TgMessage };

export class TelegramApiError extends Error {
  constructor(
    readonly method: string,
    readonly status: number,
    readonly description: string,
    /** 429 (flood control): the seconds Telegram asks to wait before trying again (`parameters.retry_after`) */
    readonly retryAfter?: number,
  ) {
    super(`telegram ${method}: ${status} ${description}`);
  }
}

export type TelegramFile = { bytes: Uint8Array; filePath: string } | { tooLarge: number };

/**
 * The Bot API client behind the channel port (docs/adr/0088): one bot (its token in the URL path, as Telegram
 * wants), every call through the given fetch (the one outbound guard in production, docs/adr/0062).
 */
export const createTelegramBotClient = (opts: { baseUrl: string; botToken: string; fetch: GraphFetch; timeoutMs?: number }) => {
  const base = opts.baseUrl.replace(/\/+$/, "");
  const call = async <T>(method: string, body: Record<string, unknown> | FormData): Promise<T> => {
    const isForm = body instanceof FormData;
    const res = await opts.fetch(`${base}/bot${opts.botToken}/${method}`, {
      method: "POST",
      headers: isForm ? undefined : { "content-type": "application/json" },
      body: isForm ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
    const out = (await res.json().catch(() => ({}))) as { ok?: boolean; result?: T; description?: string; parameters?: { retry_after?: number } };
    if (!res.ok || !out.ok) {
      const wait = Number(out.parameters?.retry_after);
      throw new TelegramApiError(method, res.status, out.description ?? "no description", Number.isFinite(wait) && wait > 0 ? wait : undefined);
    }
    return out.result as T;
  };
  const upload = (method: string, field: string, chatId: string, file: { bytes: Uint8Array; mimetype: string; filename: string }, extra: Record<string, string>) => {
    const form = new FormData();
    form.set("chat_id", chatId);
    for (const [k, v] of Object.entries(extra)) if (v) form.set(k, v);
    form.set(field, new Blob([file.bytes], { type: file.mimetype }), file.filename);
    return call<TgMessage>(method, form);
  };
  return {
    getMe: () => call<TgUser>("getMe", {}),
    setWebhook: (url: string, secretToken: string) => call<boolean>("setWebhook", { url, secret_token: secretToken, allowed_updates: ["message", "edited_message"] }),
    deleteWebhook: () => call<boolean>("deleteWebhook", {}),
    sendMessage: (chatId: string, text: string, replyTo?: number) => call<TgMessage>("sendMessage", { chat_id: chatId, text, ...(replyTo ? { reply_parameters: { message_id: replyTo } } : {}) }),
    editMessageText: (chatId: string, messageId: number, text: string) => call<TgMessage | boolean>("editMessageText", { chat_id: chatId, message_id: messageId, text }),
    sendPhoto: (chatId: string, file: { bytes: Uint8Array; mimetype: string; filename: string }, caption = "") => upload("sendPhoto", "photo", chatId, file, { caption }),
    sendDocument: (chatId: string, file: { bytes: Uint8Array; mimetype: string; filename: string }, caption = "") => upload("sendDocument", "document", chatId, file, { caption }),
    sendVoice: (chatId: string, file: { bytes: Uint8Array; mimetype: string; filename: string }, caption = "") => upload("sendVoice", "voice", chatId, file, { caption }),
    sendLocation: (chatId: string, latitude: number, longitude: number) => call<TgMessage>("sendLocation", { chat_id: chatId, latitude, longitude }),
    sendContact: (chatId: string, phoneNumber: string, firstName: string) => call<TgMessage>("sendContact", { chat_id: chatId, phone_number: phoneNumber, first_name: firstName }),
    /** getFile then the download, refused over `limit` bytes (declared size or the bytes read). */
    async downloadFile(fileId: string, limit: number): Promise<TelegramFile> {
      const file = await call<{ file_id: string; file_path?: string; file_size?: number }>("getFile", { file_id: fileId });
      if (file.file_size && file.file_size > limit) return { tooLarge: file.file_size };
      if (!file.file_path) throw new TelegramApiError("getFile", 200, "no file_path");
      const res = await opts.fetch(`${base}/file/bot${opts.botToken}/${file.file_path}`, { signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000), maxBodyBytes: limit + 1 });
      if (!res.ok) throw new TelegramApiError("file", res.status, "download failed");
      const bytes = new Uint8Array(await res.arrayBuffer());
      return bytes.byteLength > limit ? { tooLarge: bytes.byteLength } : { bytes, filePath: file.file_path };
    },
  };
};
export type TelegramBotClient = ReturnType<typeof createTelegramBotClient>;
