import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { runJob } from "../../../app/jobs-consumer";
import { TELEGRAM_SEND_JOB } from "./telegram.module";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, deliver } from "../../../testing/inbox-fixtures";
import { telegramBotApiFake } from "../../../testing/telegram-bot-api-fake";
import { createMemoryInboundQueue } from "../../../platform/queues/sqs-inbound.adapter";
import { createLocalSecretBox } from "../../../platform/secrets/local-secret-box.adapter";
import { isSealed } from "../../../platform/secrets/secret-box.port";
import { companyPk, pad } from "../../../platform/db/keys";

/**
 * Telegram through the whole API (issue 31): a connection with provider "telegram" (getMe and setWebhook on save,
 * token sealed and masked), the webhook accepted only with the secret token, each message type in and out through
 * the common pipeline, edits both ways, and company B never reaching company A's connection or tickets.
 */
const TOKEN_A = "111111:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const TOKEN_B = "222222:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
const API = "https://telegram.test";
const inbound = createMemoryInboundQueue();
const tg = telegramBotApiFake({ [TOKEN_A]: { id: 111111, username: "loja_a_bot", first_name: "Loja A" }, [TOKEN_B]: { id: 222222, username: "loja_b_bot", first_name: "Loja B" } });
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]);
const PDF = new TextEncoder().encode("%PDF-1.4\n%fake\n");

let t: TestApp;
let a: Tenant;
let b: Tenant;
let tgA: { id: number; hookPath: string; secret: string };
let tgB: { id: number; hookPath: string; secret: string };

const USER = { id: 5550001, is_bot: false, first_name: "Ana", last_name: "Souza", username: "ana_souza" };
let updateId = 1;
let messageId = 1;
const update = (fields: Record<string, unknown>, edited?: number) =>
  edited
    ? { update_id: updateId++, edited_message: { message_id: edited, date: 1_790_000_000, edit_date: 1_790_000_100, chat: { id: USER.id, type: "private" }, from: USER, ...fields } }
    : { update_id: updateId++, message: { message_id: messageId++, date: 1_790_000_000 + messageId, chat: { id: USER.id, type: "private" }, from: USER, ...fields } };
const post = (hookPath: string, body: unknown, secret: string | null) =>
  t.call("POST", hookPath, { rawBody: JSON.stringify(body), headers: { "content-type": "application/json", ...(secret !== null ? { "x-telegram-bot-api-secret-token": secret } : {}) } });
/** The Telegram send jobs (a later one queued when the one before it settles), then the inbound events they reported. */
const consume = async () => {
  for (let round = 0; round < 10; round++) {
    const jobs = t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === TELEGRAM_SEND_JOB);
    if (!jobs.length) break;
    t.jobs.pending.splice(0, t.jobs.pending.length, ...t.jobs.pending.filter((p) => !jobs.includes(p)));
    for (const p of jobs) await runJob(t.container, p.job);
  }
  const events = inbound.events.splice(0);
  if (events.length) await deliver(t, ...events);
  return events;
};
const create = async (tenant: Tenant, name: string, botToken: string) => {
  const before = tg.calls.length;
  const res = await t.call("POST", "/whatsapp", { token: tenant.adminToken, body: { name, provider: "telegram", botToken, telegramApiUrl: API } });
  expect(res.status).toBe(200);
  const setWebhook = tg.calls.slice(before).find((c) => c.method === "setWebhook")!;
  return { res, id: res.body.id as number, hookPath: new URL(String(setWebhook.fields.url)).pathname.replace(/^\/api/, ""), secret: String(setWebhook.fields.secret_token) };
};
const telegramTicket = async (tenant: Tenant) => (await adminTickets(t, tenant)).find((x) => x.contact?.name === "Ana Souza");

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { inbound, telegramFetch: tg.fetch, secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "telegram-")), "key")) } });
  a = await createTenant(t, { plan: { connections: 5 } });
  b = await createTenant(t, { plan: { connections: 5 } });
});

describe("a Telegram connection", () => {
  it("on save calls getMe and setWebhook with its URL and a generated secret token; the token is sealed and answered masked", async () => {
    const commandsBefore = t.commands.sent.length;
    const made = await create(a, "Telegram A", TOKEN_A);
    tgA = made;
    expect(made.res.body).toMatchObject({ provider: "telegram", status: "CONNECTED", number: "@loja_a_bot" });
    expect(made.res.body.channelSettings).toMatchObject({ provider: "telegram", botToken: "••••••••AAAA", telegramApiUrl: API, botUsername: "loja_a_bot" });
    expect(JSON.stringify(made.res.body)).not.toContain(TOKEN_A);
    expect(made.hookPath).toMatch(/^\/channels\/telegram\/webhook\/[\w-]{32}$/);
    expect(made.secret).toMatch(/^[\w-]{43}$/);
    expect(tg.calls.filter((c) => c.token === TOKEN_A).map((c) => c.method)).toEqual(["getMe", "setWebhook"]);
    // no session host for a Telegram connection
    expect(t.commands.sent.slice(commandsBefore).filter((c) => c.whatsappId === made.id)).toEqual([]);
    const item = (await t.container.db.doc.send(new GetCommand({ TableName: t.container.db.tableName, Key: { pk: companyPk(a.company.id), sk: `TELEGRAM#${pad(made.id)}` } }))).Item!;
    expect(isSealed(item.botToken as string)).toBe(true);
    expect(isSealed(item.secretToken as string)).toBe(true);
    expect(JSON.stringify(item)).not.toContain(TOKEN_A);
    // GET /whatsapp/{id} answers the masked settings; a PUT with the masked token keeps it and the webhook
    const shown = await t.call("GET", `/whatsapp/${made.id}`, { token: a.adminToken });
    expect(shown.body.channelSettings.botToken).toBe("••••••••AAAA");
    const put = await t.call("PUT", `/whatsapp/${made.id}`, { token: a.adminToken, body: { name: "Telegram A", provider: "telegram", botToken: shown.body.channelSettings.botToken, telegramApiUrl: API } });
    expect(put.status).toBe(200);
    expect(put.body.channelSettings.webhookUrl).toBe(shown.body.channelSettings.webhookUrl);
    const again = tg.calls.filter((c) => c.method === "setWebhook").at(-1)!;
    expect([again.token, again.fields.secret_token]).toEqual([TOKEN_A, made.secret]);
    tgB = await create(b, "Telegram B", TOKEN_B);
  });

  it("refuses a Telegram connection without a valid bot token, storing nothing", async () => {
    const before = (await t.call("GET", "/whatsapp", { token: a.adminToken })).body.length;
    for (const botToken of ["", "not-a-token"]) {
      const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: `X${botToken}`, provider: "telegram", botToken } });
      expect([res.status, res.body.error]).toEqual([400, "ERR_VALIDATION"]);
    }
    expect((await t.call("GET", "/whatsapp", { token: a.adminToken })).body.length).toBe(before);
  });

  it("refuses updates without the right secret token (403, nothing stored) and accepts them with it", async () => {
    for (const secret of [null, "wrong", tgB.secret]) {
      const res = await post(tgA.hookPath, update({ text: "sem segredo" }), secret);
      expect(res.status).toBe(403);
    }
    expect(inbound.events).toEqual([]);
    const ok = await post(tgA.hookPath, update({ text: "Olá, vocês entregam?" }), tgA.secret);
    expect(ok.status).toBe(200);
    const events = await consume();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ companyId: a.company.id, whatsappId: tgA.id, type: "message", message: { chatJid: `${USER.id}@telegram`, body: "Olá, vocês entregam?" } });
    const ticket = await telegramTicket(a);
    expect(ticket).toBeDefined();
    const contact = (await t.call("GET", `/contacts/${ticket!.contact.id}`, { token: a.adminToken })).body;
    expect(contact).toMatchObject({ name: "Ana Souza", number: "", channel: "telegram", channelUserId: String(USER.id), channelUsername: "ana_souza" });
    // a webhook URL of company A never creates a ticket in company B
    expect(await telegramTicket(b)).toBeUndefined();
  });

  it("takes photo, document, voice, location and contact in, files downloaded by getFile and checked by their bytes", async () => {
    tg.addFile("PHOTO-1", "photos/file_1.jpg", JPEG);
    tg.addFile("DOC-1", "documents/file_2.pdf", PDF);
    tg.addFile("VOICE-1", "voice/file_3.oga", OGG);
    const sizes = [{ file_id: "PHOTO-SMALL", file_unique_id: "s", width: 90, height: 90 }, { file_id: "PHOTO-1", file_unique_id: "l", width: 800, height: 800 }];
    for (const u of [
      update({ photo: sizes, caption: "essa cor" }),
      update({ document: { file_id: "DOC-1", file_name: "pedido.pdf", mime_type: "image/png" } }),
      update({ voice: { file_id: "VOICE-1", duration: 3, mime_type: "audio/ogg" } }),
      update({ location: { latitude: -23.5, longitude: -46.6 } }),
      update({ contact: { phone_number: "+5511988887777", first_name: "Bia" } }),
    ])
      expect((await post(tgA.hookPath, u, tgA.secret)).status).toBe(200);
    await consume();
    const ticket = (await telegramTicket(a))!;
    const messages = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { body: string; mediaType: string; mediaUrl: string | null }[];
    const byType = Object.fromEntries(messages.map((m) => [m.mediaType, m]));
    expect(byType.image).toMatchObject({ body: "essa cor" });
    expect(byType.image!.mediaUrl).toBeTruthy();
    // declared image/png, bytes of a PDF: the bytes decide
    expect(byType.application!.mediaUrl).toMatch(/pedido\.pdf/);
    expect(byType.audio!.mediaUrl).toBeTruthy();
    expect(byType.locationMessage!.body).toContain("-23.5,-46.6");
    expect(byType.contactMessage!.body).toContain("TEL;type=CELL:+5511988887777");
    expect(tg.calls.filter((c) => c.method === "getFile").map((c) => c.fields.file_id)).toEqual(["PHOTO-1", "DOC-1", "VOICE-1"]);
  });

  it("an edited message updates the stored text", async () => {
    const first = messageId;
    await post(tgA.hookPath, update({ text: "quero 2" }), tgA.secret);
    await consume();
    await post(tgA.hookPath, update({ text: "quero 3" }, first), tgA.secret);
    await consume();
    const ticket = (await telegramTicket(a))!;
    const messages = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { id: string; body: string }[];
    expect(messages.find((m) => m.id === `tg-${USER.id}-${first}`)?.body).toBe("quero 3");
  });

  it("sends text, a photo, a document and a voice note out by the Bot API, and edits a sent text", async () => {
    const ticket = (await telegramTicket(a))!;
    const before = tg.calls.length;
    const res = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "Entregamos sim!" } });
    expect(res.status).toBeLessThan(300);
    const form = (name: string, type: string, bytes: Uint8Array) => {
      const f = new FormData();
      f.set("medias", new Blob([bytes], { type }), name);
      f.set("body", "");
      return f;
    };
    for (const [name, type, bytes] of [["foto.jpg", "image/jpeg", JPEG], ["pedido.pdf", "application/pdf", PDF], ["audio.ogg", "audio/ogg", OGG]] as const) {
      const up = await t.app.request(`/api/messages/${ticket.id}`, { method: "POST", body: form(name, type, bytes), headers: { authorization: `Bearer ${a.adminToken}` } });
      expect(up.status).toBeLessThan(300);
    }
    await consume();
    const sent = tg.calls.slice(before).filter((c) => c.token === TOKEN_A);
    expect(sent.map((c) => c.method)).toEqual(["sendMessage", "sendPhoto", "sendDocument", "sendVoice"]);
    expect(sent[0]!.fields).toMatchObject({ chat_id: String(USER.id), text: "Entregamos sim!" });
    expect(sent.slice(1).map((c) => c.file?.name)).toEqual(["foto.jpg", "pedido.pdf", "audio.ogg"]);
    const messages = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { id: string; fromMe: boolean; body: string; ack: number }[];
    const mine = messages.find((m) => m.fromMe && m.body === "Entregamos sim!")!;
    expect(mine.ack).toBeGreaterThanOrEqual(1);
    const edit = await t.call("POST", `/messages/edit/${mine.id}`, { token: a.adminToken, body: { body: "Entregamos sim, em 2 dias!" } });
    expect(edit.status).toBeLessThan(300);
    await consume();
    expect(tg.calls.at(-1)).toMatchObject({ method: "editMessageText", fields: { chat_id: String(USER.id), message_id: 1000, text: "Entregamos sim, em 2 dias!" } });
  });

  it("a send refused by flood control (429) goes again after the wait Telegram asks for, in order with the one after it", async () => {
    const ticket = (await telegramTicket(a))!;
    const before = tg.calls.length;
    tg.flood(1);
    const form = new FormData();
    for (const name of ["um.pdf", "dois.pdf"]) form.append("medias", new Blob([PDF], { type: "application/pdf" }), name);
    form.set("body", "");
    const res = await t.app.request(`/api/messages/${ticket.id}`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(res.status).toBeLessThan(300);
    // one job queued (the second file waits for the first); refused, it comes back after Telegram's 3 seconds
    const first = t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === TELEGRAM_SEND_JOB);
    expect(first.length).toBe(1);
    t.jobs.pending.splice(t.jobs.pending.indexOf(first[0]!), 1);
    await runJob(t.container, first[0]!.job);
    expect(t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === TELEGRAM_SEND_JOB).map((p) => p.delaySeconds)).toEqual([3]);
    await consume();
    const sent = tg.calls.slice(before).filter((c) => c.token === TOKEN_A && c.method === "sendDocument");
    expect(sent.map((c) => c.file?.name)).toEqual(["um.pdf", "um.pdf", "dois.pdf"]);
    const messages = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { body: string; mediaName?: string | null; ack: number; error: string | null }[];
    expect(messages.filter((m) => m.mediaName === "um.pdf" || m.mediaName === "dois.pdf").map((m) => [m.ack >= 1, m.error])).toEqual([
      [true, null],
      [true, null],
    ]);
  });

  it("another company can neither read nor change nor remove the connection", async () => {
    // connection ids are per company: B's id of the same number is B's own connection, never A's
    const seen = await t.call("GET", `/whatsapp/${tgA.id}`, { token: b.adminToken });
    expect(seen.status === 404 || seen.body.channelSettings?.botUsername === "loja_b_bot").toBe(true);
    expect(JSON.stringify(seen.body)).not.toContain("loja_a_bot");
    expect((await t.call("GET", `/whatsapp/9999`, { token: b.adminToken })).status).toBe(404);
    await t.call("PUT", `/whatsapp/${tgA.id}`, { token: b.adminToken, body: { name: "Telegram B", provider: "telegram", botToken: "", telegramApiUrl: API } });
    await t.call("DELETE", `/whatsapp/${tgB.id}`, { token: b.adminToken });
    const own = await t.call("GET", `/whatsapp/${tgA.id}`, { token: a.adminToken });
    expect([own.status, own.body.channelSettings.botUsername]).toEqual([200, "loja_a_bot"]);
    // B's webhook is gone with its connection; A's still takes A's updates only
    expect((await post(tgB.hookPath, update({ text: "b" }), tgB.secret)).status).toBe(404);
    expect((await post(tgA.hookPath, update({ text: "ainda aqui" }), tgA.secret)).status).toBe(200);
    expect((await consume()).every((e) => e.companyId === a.company.id)).toBe(true);
  });
});
