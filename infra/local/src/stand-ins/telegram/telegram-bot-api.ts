import { Hono } from "hono";
import { TELEGRAM_PAGE } from "./telegram-page";

/**
 * Telegram's Bot API stand-in (local only, issue 31): /simulator/telegram/bot<token>/<method> answers getMe,
 * setWebhook, deleteWebhook, sendMessage/Photo/Document/Voice/Location/Contact, editMessageText and getFile, and
 * /simulator/telegram/file/bot<token>/<path> serves the files users sent. /simulator/telegram/api/* is the page's
 * control: a Telegram user writes (text, photo, document, voice, location, contact, an edit), posted to the bot's
 * registered webhook with its secret token, as Telegram does; the bot's replies are kept per user.
 */
export const DEMO_TELEGRAM_BOT_TOKEN = "4242424242:DEMO-telegram-bot-token-of-the-stand-in";

type Bot = { id: number; username: string; webhook: { url: string; secret: string } | null; nextId: number };
type Line = { from: "user" | "bot"; id: number; text: string; kind: string; edited?: boolean };

export const createTelegramStandIn = () => {
  const bots = new Map<string, Bot>();
  const files = new Map<string, { path: string; bytes: Uint8Array<ArrayBuffer>; mime: string }>();
  const chats = new Map<number, Line[]>();
  let updateId = 1;
  const botOf = (token: string) => {
    if (!/^\d{3,20}:[\w-]{20,100}$/.test(token)) return null;
    let bot = bots.get(token);
    if (!bot) bots.set(token, (bot = { id: Number(token.split(":")[0]), username: `demo_${token.split(":")[0]!.slice(-4)}_bot`, webhook: null, nextId: 1 }));
    return bot;
  };
  const log = (userId: number, line: Line) => chats.set(userId, [...(chats.get(userId) ?? []), line].slice(-200));

  const app = new Hono().basePath("/simulator/telegram");
  app.get("/", (c) => c.html(TELEGRAM_PAGE));
  app.get("/file/:bot/*", (c) => {
    const path = c.req.path.split(`/file/${c.req.param("bot")}/`)[1] ?? "";
    const f = [...files.values()].find((x) => x.path === path);
    return f ? new Response(f.bytes, { headers: { "content-type": f.mime } }) : c.json({ ok: false, description: "Not Found" }, 404);
  });
  app.post("/:bot{bot[^/]+}/:method", async (c) => {
    const token = c.req.param("bot").replace(/^bot/, "");
    const bot = botOf(token);
    if (!bot) return c.json({ ok: false, error_code: 401, description: "Unauthorized" }, 401);
    const method = c.req.param("method");
    const isForm = c.req.header("content-type")?.startsWith("multipart/");
    const form = isForm ? await c.req.formData() : null;
    const body = form ? Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : `[file ${v.name}]`])) : ((await c.req.json().catch(() => ({}))) as Record<string, unknown>);
    const ok = (result: unknown) => c.json({ ok: true, result });
    if (method === "getMe") return ok({ id: bot.id, is_bot: true, first_name: "Atende Demo", username: bot.username });
    if (method === "setWebhook") return (bot.webhook = { url: String(body.url), secret: String(body.secret_token ?? "") }), ok(true);
    if (method === "deleteWebhook") return (bot.webhook = null), ok(true);
    if (method === "getFile") {
      const f = files.get(String(body.file_id));
      return f ? ok({ file_id: body.file_id, file_path: f.path, file_size: f.bytes.byteLength }) : c.json({ ok: false, description: "Bad Request: invalid file_id" }, 400);
    }
    const chatId = Number(body.chat_id);
    if (method === "editMessageText") {
      const line = chats.get(chatId)?.find((l) => l.from === "bot" && l.id === Number(body.message_id));
      if (line) Object.assign(line, { text: String(body.text), edited: true });
      return ok(true);
    }
    if (!method.startsWith("send")) return c.json({ ok: false, description: `Not Found: method ${method}` }, 404);
    const kind = method.slice(4).toLowerCase();
    const text = String(body.text ?? body.caption ?? (kind === "location" ? `${body.latitude},${body.longitude}` : kind === "contact" ? `${body.first_name} ${body.phone_number}` : ""));
    const id = bot.nextId++;
    log(chatId, { from: "bot", id, text: kind === "message" ? text : `[${kind}] ${text}`, kind });
    return ok({ message_id: id, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: "private" } });
  });

  /** A user writes to the bot: the update goes to its webhook with the secret token, as Telegram posts it. */
  app.post("/api/updates", async (c) => {
    const b = (await c.req.json().catch(() => ({}))) as Record<string, string | number | undefined>;
    const bot = botOf(String(b.token || DEMO_TELEGRAM_BOT_TOKEN));
    if (!bot?.webhook) return c.json({ error: "the bot has no webhook (save the Telegram connection first)" }, 409);
    const userId = Number(b.userId) || 700001;
    const from = { id: userId, is_bot: false, first_name: String(b.name || "Cliente Telegram"), ...(b.username ? { username: String(b.username) } : {}) };
    const base = { date: Math.floor(Date.now() / 1000), chat: { id: userId, type: "private" }, from };
    const fileOf = (kind: string) => {
      const fileId = `F${updateId}-${Date.now()}`;
      const bytes = Uint8Array.from(Buffer.from(String(b.fileBase64 ?? ""), "base64"));
      files.set(fileId, { path: `${kind}/${fileId}-${String(b.fileName ?? "file")}`, bytes, mime: String(b.mimeType ?? "application/octet-stream") });
      return fileId;
    };
    const mine = (chats.get(userId) ?? []).filter((l) => l.from === "user");
    const messageId = (mine.at(-1)?.id ?? 0) + 1;
    let message: Record<string, unknown>;
    const kind = String(b.kind ?? "text");
    if (kind === "photo") message = { photo: [{ file_id: fileOf("photos"), file_unique_id: "u", width: 800, height: 600 }], caption: b.text };
    else if (kind === "document") message = { document: { file_id: fileOf("documents"), file_name: b.fileName, mime_type: b.mimeType }, caption: b.text };
    else if (kind === "voice") message = { voice: { file_id: fileOf("voice"), duration: 3, mime_type: "audio/ogg" } };
    else if (kind === "location") message = { location: { latitude: Number(b.latitude ?? -23.55), longitude: Number(b.longitude ?? -46.63) } };
    else if (kind === "contact") message = { contact: { phone_number: String(b.phone ?? "+5511999990000"), first_name: String(b.contactName ?? "Contato") } };
    else message = { text: String(b.text ?? "") };
    const edit = kind === "edit" ? mine.find((l) => l.id === Number(b.messageId)) ?? mine.at(-1) : undefined;
    const update = edit
      ? { update_id: updateId++, edited_message: { ...base, message_id: edit.id, edit_date: base.date, text: String(b.text ?? "") } }
      : { update_id: updateId++, message: { ...base, message_id: messageId, ...message } };
    const res = await fetch(bot.webhook.url, { method: "POST", headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": bot.webhook.secret }, body: JSON.stringify(update) });
    if (edit) Object.assign(edit, { text: String(b.text ?? ""), edited: true });
    else log(userId, { from: "user", id: messageId, text: kind === "text" ? String(b.text ?? "") : `[${kind}] ${String(b.text ?? b.fileName ?? "")}`, kind });
    return c.json({ status: res.status, updateId: update.update_id });
  });
  app.get("/api/chats/:userId", (c) => c.json(chats.get(Number(c.req.param("userId"))) ?? []));
  return { fetch: (req: Request) => app.fetch(req), bots };
};

/** The demo company's Telegram connection, on the stand-in (first start with demo conversations). */
export const wireTelegramDemo = async (opts: { url: string; login: { email: string; password: string } }) => {
  const login = await fetch(`${opts.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(opts.login) });
  const token = ((await login.json()) as { token?: string }).token;
  if (!token) throw new Error(`login ${login.status}`);
  const made = await fetch(`${opts.url}/api/whatsapp`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: "Telegram (simulador)", provider: "telegram", botToken: DEMO_TELEGRAM_BOT_TOKEN, telegramApiUrl: `${opts.url}/simulator/telegram` }),
  });
  if (made.status !== 200) throw new Error(`connection ${made.status} ${await made.text()}`);
};
