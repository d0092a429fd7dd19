import { afterEach, describe, expect, it, vi } from "vitest";
import { createTelegramStandIn, DEMO_TELEGRAM_BOT_TOKEN } from "./telegram-bot-api";
import { TELEGRAM_PAGE, TELEGRAM_PAGE_STRINGS } from "./telegram-page";

const call = (s: ReturnType<typeof createTelegramStandIn>, path: string, body?: unknown) =>
  s.fetch(new Request(`http://local/simulator/telegram${path}`, { method: body === undefined ? "GET" : "POST", headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }));

afterEach(() => vi.unstubAllGlobals());

describe("Telegram Bot API stand-in", () => {
  it("answers getMe, keeps setWebhook, posts a user's updates there with the secret token and serves their files", async () => {
    const s = createTelegramStandIn();
    const bot = `/bot${DEMO_TELEGRAM_BOT_TOKEN}`;
    expect(await (await call(s, `${bot}/getMe`, {})).json()).toMatchObject({ ok: true, result: { is_bot: true } });
    expect((await call(s, "/botnope/getMe", {})).status).toBe(401);
    await call(s, `${bot}/setWebhook`, { url: "http://app.test/api/channels/telegram/webhook/h", secret_token: "S3CRET" });
    const posted: { url: string; secret: string | null; body: Record<string, any> }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      posted.push({ url, secret: new Headers(init.headers).get("x-telegram-bot-api-secret-token"), body: JSON.parse(String(init.body)) });
      return new Response("{}", { status: 200 });
    });
    await call(s, "/api/updates", { userId: 7, name: "Ana", username: "ana", kind: "text", text: "oi" });
    await call(s, "/api/updates", { userId: 7, kind: "photo", fileBase64: Buffer.from([0xff, 0xd8, 0xff]).toString("base64"), fileName: "a.jpg", mimeType: "image/jpeg" });
    await call(s, "/api/updates", { userId: 7, kind: "edit", text: "olá" });
    expect(posted.map((p) => [p.url, p.secret])).toEqual(Array(3).fill(["http://app.test/api/channels/telegram/webhook/h", "S3CRET"]));
    expect(posted[0]!.body.message).toMatchObject({ text: "oi", from: { id: 7, first_name: "Ana", username: "ana" }, chat: { id: 7, type: "private" } });
    expect(posted[2]!.body.edited_message).toMatchObject({ message_id: 2, text: "olá" });
    const fileId = posted[1]!.body.message.photo[0].file_id as string;
    const file = (await (await call(s, `${bot}/getFile`, { file_id: fileId })).json()) as { result: { file_path: string } };
    const bytes = new Uint8Array(await (await call(s, `/file${bot}/${file.result.file_path}`)).arrayBuffer());
    expect([...bytes]).toEqual([0xff, 0xd8, 0xff]);
    // the bot's replies are shown on the user's chat
    const sent = (await (await call(s, `${bot}/sendMessage`, { chat_id: 7, text: "Olá, Ana!" })).json()) as { result: { message_id: number } };
    await call(s, `${bot}/editMessageText`, { chat_id: 7, message_id: sent.result.message_id, text: "Olá, Ana! Tudo bem?" });
    const chat = (await (await call(s, "/api/chats/7")).json()) as { from: string; text: string; edited?: boolean }[];
    expect(chat.filter((l) => l.from === "bot")).toEqual([expect.objectContaining({ text: "Olá, Ana! Tudo bem?", edited: true })]);
  });

  it("its page has every word in pt, en and es, each key in each language, and nothing left in the markup", () => {
    const keys = Object.keys(TELEGRAM_PAGE_STRINGS.pt).sort();
    for (const lang of ["en", "es"] as const) expect(Object.keys(TELEGRAM_PAGE_STRINGS[lang]).sort()).toEqual(keys);
    for (const lang of ["pt", "en", "es"] as const) for (const v of Object.values(TELEGRAM_PAGE_STRINGS[lang])) expect(v).not.toBe("");
    for (const used of TELEGRAM_PAGE.matchAll(/data-t="([a-zA-Z]+)"/g)) expect(keys).toContain(used[1]);
    expect(TELEGRAM_PAGE).not.toMatch(/>(Enviar|Editar|Foto|Contato)</);
  });
});
