/**
 * A recording fake of Telegram's Bot API for the int tests (docs/adr/0088): bots by token, every call recorded
 * (method, JSON fields or the multipart form's fields and file), message ids counted per bot, files served by
 * getFile and `/file/bot<token>/<path>`. A wrong token answers 401 like Telegram. Pass its `fetch` as the
 * container's `telegramFetch`.
 */
export type TelegramFakeCall = { token: string; method: string; fields: Record<string, unknown>; file?: { name: string; type: string; size: number } };

export const telegramBotApiFake = (bots: Record<string, { id: number; username: string; first_name: string }>) => {
  const calls: TelegramFakeCall[] = [];
  const files = new Map<string, { path: string; bytes: Uint8Array }>();
  let nextId = 1000;
  /** the next N send calls are refused by flood control (429 with `retry_after`), as Telegram does */
  let floods = 0;
  const ok = (result: unknown) => Response.json({ ok: true, result });
  const fetch = async (url: string, init?: RequestInit): Promise<Response> => {
    const u = new URL(url);
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(u.pathname);
    if (file) {
      const found = [...files.values()].find((f) => f.path === file[2]);
      return found && bots[file[1]!] ? new Response(found.bytes) : new Response("not found", { status: 404 });
    }
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(u.pathname);
    if (!m) return new Response("not found", { status: 404 });
    const [, token, method] = m as unknown as [string, string, string];
    const bot = bots[token];
    if (!bot) return Response.json({ ok: false, error_code: 401, description: "Unauthorized" }, { status: 401 });
    const fields: Record<string, unknown> = {};
    let sentFile: TelegramFakeCall["file"];
    if (init?.body instanceof FormData) {
      for (const [k, v] of init.body.entries()) {
        if (typeof v === "string") fields[k] = v;
        else sentFile = { name: v.name, type: v.type, size: v.size };
      }
    } else Object.assign(fields, init?.body ? JSON.parse(String(init.body)) : {});
    calls.push({ token, method, fields, ...(sentFile ? { file: sentFile } : {}) });
    if (method === "getMe") return ok({ id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username });
    if (method === "setWebhook" || method === "deleteWebhook") return ok(true);
    if (method === "getFile") {
      const f = files.get(String(fields.file_id));
      return f ? ok({ file_id: fields.file_id, file_path: f.path, file_size: f.bytes.byteLength }) : Response.json({ ok: false, description: "Bad Request: invalid file_id" }, { status: 400 });
    }
    if (method === "editMessageText") return ok(true);
    if (method.startsWith("send") && floods > 0) {
      floods--;
      return Response.json({ ok: false, error_code: 429, description: "Too Many Requests: retry after 3", parameters: { retry_after: 3 } }, { status: 429 });
    }
    if (method.startsWith("send")) return ok({ message_id: nextId++, date: Math.floor(Date.now() / 1000), chat: { id: Number(fields.chat_id), type: "private" } });
    return Response.json({ ok: false, description: `Not Found: method ${method}` }, { status: 404 });
  };
  return {
    fetch,
    calls,
    /** refuses the next `n` sends with 429 (flood control) */
    flood: (n: number) => void (floods = n),
    /** a file a user sent, for getFile and its download */
    addFile: (fileId: string, path: string, bytes: Uint8Array) => void files.set(fileId, { path, bytes }),
  };
};
