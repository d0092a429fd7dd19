import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { inboundEventSchema, type InboundEvent, type OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { createLogger } from "../../../platform/logger";
import { createMemoryJobQueue } from "../../../platform/queues/sqs-jobs.adapter";
import { createMemoryInboundQueue } from "../../../platform/queues/sqs-inbound.adapter";
import { createLocalSecretBox } from "../../../platform/secrets/local-secret-box.adapter";
import { isSealed } from "../../../platform/secrets/secret-box.port";
import { companyPk, pad } from "../../../platform/db/keys";
import type { MediaStore } from "../../../platform/storage/media-store.port";
import { signatureFor } from "../../../platform/channels/meta-webhook/webhook-signature";
import { createMetaModule, type MetaModule } from "./meta.module";
import { META_WEBHOOK_PATH } from "./meta-webhook.routes";

/**
 * Messenger and Instagram against DynamoDB Local and a Graph stand-in (docs/adr/0090): settings sealed and masked,
 * Meta's verification handshake, signatures (nothing enqueued without a good one), each inbound type mapped and
 * stamped with the connection's company (never another's), the consumer step (window, profile name, attachment
 * into our storage), and sends through the Send API under the messaging window (test clock).
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let mod: MetaModule;
let http: Hono;
const inbound = createMemoryInboundQueue();
const stored = new Map<string, { body: Uint8Array; mimetype: string }>();
const media: MediaStore = { put: async (k, body, mimetype) => void stored.set(k, { body, mimetype }), get: async (k) => stored.get(k) ?? null, delete: async (k) => void stored.delete(k) };
const PAGE_A = "PAGE-A-1001";
const IG_B = "IG-B-2002";
const sent: { url: string; body: unknown }[] = [];
/** A Graph stand-in: Send API, profiles and a CDN attachment, only with the right page token. */
const graphFetch = async (url: string, init?: RequestInit) => {
  if (url === "https://cdn.test/photo.jpg") return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]), { headers: { "content-type": "image/jpeg" } });
  const auth = new Headers(init?.headers).get("authorization");
  if (auth !== "Bearer PAGE-TOKEN-A" && auth !== "Bearer IG-TOKEN-B") return Response.json({ error: { message: "Invalid OAuth access token", code: 190 } }, { status: 401 });
  if (url.includes("/PSID-1?fields=")) return Response.json({ first_name: "Ana", last_name: "Lima", id: "PSID-1" });
  if (url.includes("/IGSID-1?fields=")) return Response.json({ name: "Bia", username: "bia.shop", id: "IGSID-1" });
  if (url.endsWith("/messages") && init?.method === "POST") {
    const body = init.body instanceof FormData ? Object.fromEntries([...init.body.entries()].map(([k, v]) => [k, typeof v === "string" ? v : `file:${(v as File).name}`])) : JSON.parse(String(init.body));
    sent.push({ url, body });
    return Response.json({ recipient_id: "x", message_id: `m_out_${sent.length}` });
  }
  return Response.json({ error: { message: "Unsupported", code: 100 } }, { status: 400 });
};

const viewOf = async (tenant: Tenant) => (await mod.service.view(tenant.company.id, tenant.whatsapp.id, "https://app.test"))!;
const post = (hookUrl: string, body: unknown, secret: string | null) => {
  const raw = JSON.stringify(body);
  return http.request(new URL(hookUrl).pathname, { method: "POST", headers: { "content-type": "application/json", ...(secret !== null ? { "x-hub-signature-256": signatureFor(raw, secret) } : {}) }, body: raw });
};
const page = (object: string, id: string, messaging: unknown[]) => ({ object, entry: [{ id, time: Date.now(), messaging }] });
const from = (sender: string, recipient: string, rest: Record<string, unknown>) => ({ sender: { id: sender }, recipient: { id: recipient }, timestamp: t.clock.now.getTime(), ...rest });
const messagesSince = (n: number) => inbound.events.slice(n).filter((e): e is Extract<InboundEvent, { type: "message" }> => e.type === "message");

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
  mod = createMetaModule({
    db: t.container.db,
    config: {},
    secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "meta-")), "key")),
    media,
    inbound,
    jobs: createMemoryJobQueue(),
    clock: () => t.clock.now,
    logger: createLogger("silent"),
    fetch: graphFetch,
  });
  http = new Hono();
  http.route(META_WEBHOOK_PATH, mod.routes![0]!.app);
  await mod.service.configure(a.company.id, a.whatsapp.id, "messenger", { pageId: PAGE_A, pageAccessToken: "PAGE-TOKEN-A", appSecret: "secret-of-company-a", graphApiUrl: "https://graph.test/v21.0" });
  await mod.service.configure(b.company.id, b.whatsapp.id, "instagram", { pageId: IG_B, pageAccessToken: "IG-TOKEN-B", appSecret: "secret-of-company-b", graphApiUrl: "https://graph.test/v21.0" });
});

describe("Messenger / Instagram connection settings", () => {
  it("are stored sealed and answered masked, with the webhook URL and verify token", async () => {
    const item = (await t.container.db.doc.send(new GetCommand({ TableName: t.container.db.tableName, Key: { pk: companyPk(a.company.id), sk: `META#${pad(a.whatsapp.id)}` } }))).Item!;
    expect(isSealed(item.pageAccessToken as string)).toBe(true);
    expect(isSealed(item.appSecret as string)).toBe(true);
    expect(JSON.stringify(item)).not.toContain("PAGE-TOKEN-A");
    const view = await viewOf(a);
    expect(view).toMatchObject({ pageId: PAGE_A, graphApiUrl: "https://graph.test/v21.0" });
    expect(view.pageAccessToken).not.toContain("PAGE-TOKEN");
    expect(view.appSecret).not.toContain("secret-of");
    expect(view.webhookUrl).toMatch(/^https:\/\/app\.test\/api\/channels\/meta\/webhook\/[\w-]{32}$/);
    expect(view.verifyToken).toMatch(/^[\w-]{24}$/);
    // an edit with the masked values keeps the secrets and the webhook URL
    await mod.service.configure(a.company.id, a.whatsapp.id, "messenger", { pageId: PAGE_A, pageAccessToken: view.pageAccessToken, appSecret: "", graphApiUrl: view.graphApiUrl });
    expect(await viewOf(a)).toEqual(view);
    expect((await mod.service.settings(a.company.id, a.whatsapp.id))!.pageAccessToken).toBe("PAGE-TOKEN-A");
  });
});

describe("the Meta webhook", () => {
  it("answers the verification handshake only with the connection's verify token", async () => {
    const view = await viewOf(a);
    const path = new URL(view.webhookUrl).pathname;
    const ok = await http.request(`${path}?hub.mode=subscribe&hub.verify_token=${view.verifyToken}&hub.challenge=42424242`);
    expect([ok.status, await ok.text()]).toEqual([200, "42424242"]);
    expect((await http.request(`${path}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`)).status).toBe(403);
    expect((await http.request(`${path}?hub.mode=subscribe&hub.verify_token=${(await viewOf(b)).verifyToken}&hub.challenge=1`)).status).toBe(403);
    expect((await http.request(`${META_WEBHOOK_PATH}/${randomBytes(24).toString("base64url")}?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status).toBe(403);
  });

  it("a missing, wrong or other company's signature is refused (403) and nothing is enqueued", async () => {
    const { webhookUrl } = await viewOf(a);
    const before = inbound.events.length;
    const body = page("page", PAGE_A, [from("PSID-1", PAGE_A, { message: { mid: "m_sig", text: "oi" } })]);
    expect((await post(webhookUrl, body, null)).status).toBe(403);
    expect((await post(webhookUrl, body, "not-the-secret")).status).toBe(403);
    expect((await post(webhookUrl, body, "secret-of-company-b")).status).toBe(403);
    const raw = JSON.stringify(body);
    const tampered = await http.request(new URL(webhookUrl).pathname, { method: "POST", headers: { "x-hub-signature-256": signatureFor(raw, "secret-of-company-a") }, body: raw.replace("oi", "io") });
    expect(tampered.status).toBe(403);
    expect(inbound.events.length).toBe(before);
  });

  it("cross-tenant: company A's URL never creates anything for company B (nor reads B's page)", async () => {
    const { webhookUrl } = await viewOf(a);
    const before = inbound.events.length;
    // B's Instagram account's events posted to A's URL, signed with A's secret: not A's page, so nothing
    const res = await post(webhookUrl, page("instagram", IG_B, [from("IGSID-1", IG_B, { message: { mid: "ig_x", text: "oi" } })]), "secret-of-company-a");
    expect(res.status).toBe(200);
    const res2 = await post(webhookUrl, page("page", IG_B, [from("IGSID-1", IG_B, { message: { mid: "ig_y", text: "oi" } })]), "secret-of-company-a");
    expect(res2.status).toBe(200);
    expect(inbound.events.length).toBe(before);
  });

  it("Messenger: text, image, file, audio, video and reactions in, for the connection's company, in the inbound contract", async () => {
    const { webhookUrl } = await viewOf(a);
    const before = inbound.events.length;
    const att = (type: string, url: string) => ({ type, payload: { url } });
    const res = await post(
      webhookUrl,
      page("page", PAGE_A, [
        from("PSID-1", PAGE_A, { message: { mid: "m_t", text: "Olá, loja!" } }),
        from("PSID-1", PAGE_A, { message: { mid: "m_i", attachments: [att("image", "https://cdn.test/photo.jpg")] } }),
        from("PSID-1", PAGE_A, { message: { mid: "m_f", attachments: [att("file", "https://cdn.test/a.pdf")] } }),
        from("PSID-1", PAGE_A, { message: { mid: "m_a", attachments: [att("audio", "https://cdn.test/a.mp4")] } }),
        from("PSID-1", PAGE_A, { message: { mid: "m_v", attachments: [att("video", "https://cdn.test/v.mp4")] } }),
        from("PSID-1", PAGE_A, { reaction: { mid: "m_out_1", action: "react", reaction: "love", emoji: "❤️" } }),
      ]),
      "secret-of-company-a",
    );
    expect(res.status).toBe(200);
    const events = inbound.events.slice(before);
    expect(events.map((e) => inboundEventSchema.parse(e))).toHaveLength(6);
    expect(events.every((e) => e.companyId === a.company.id && e.whatsappId === a.whatsapp.id)).toBe(true);
    expect(messagesSince(before).map((e) => [e.message.type, e.message.chatJid])).toEqual([
      ["chat", "PSID-1@messenger"], ["image", "PSID-1@messenger"], ["document", "PSID-1@messenger"], ["audio", "PSID-1@messenger"], ["video", "PSID-1@messenger"], ["reactionMessage", "PSID-1@messenger"],
    ]);
  });

  it("Instagram: story reply and story mention in", async () => {
    const { webhookUrl } = await viewOf(b);
    const before = inbound.events.length;
    await post(
      webhookUrl,
      page("instagram", IG_B, [
        from("IGSID-1", IG_B, { message: { mid: "ig_r", text: "amei!", reply_to: { story: { id: "s1", url: "https://cdn.test/story1" } } } }),
        from("IGSID-1", IG_B, { message: { mid: "ig_m", attachments: [{ type: "story_mention", payload: { url: "https://cdn.test/photo.jpg" } }] } }),
      ]),
      "secret-of-company-b",
    );
    const ms = messagesSince(before);
    expect(ms.every((e) => e.companyId === b.company.id)).toBe(true);
    expect(ms.map((e) => [e.message.type, e.message.body, e.message.chatJid])).toEqual([
      ["chat", "https://cdn.test/story1\namei!", "IGSID-1@instagram"],
      ["image", "", "IGSID-1@instagram"],
    ]);
  });

  it("the consumer step: the profile name, the attachment into our storage (type from the bytes), the window", async () => {
    const { webhookUrl } = await viewOf(a);
    const before = inbound.events.length;
    await post(webhookUrl, page("page", PAGE_A, [from("PSID-1", PAGE_A, { message: { mid: "m_photo", attachments: [{ type: "image", payload: { url: "https://cdn.test/photo.jpg" } }] } })]), "secret-of-company-a");
    const ready = await mod.inboundStep.prepare(inbound.events[before]!);
    const m = (ready as Extract<InboundEvent, { type: "message" }>).message;
    expect(m.sender.pushName).toBe("Ana Lima");
    expect(m.remoteMedia).toBeUndefined();
    expect(m.media).toMatchObject({ mimetype: "image/jpeg", size: 6 });
    expect(stored.get(m.media!.key)?.body.byteLength).toBe(6);
    expect((await mod.service.window(a.company.id, a.whatsapp.id, "PSID-1@messenger")).state).toBe("open");
  });
});

describe("sending under Meta's messaging window", () => {
  const send = (body: string, extra: Partial<OutboundCommand> = {}) =>
    ({ type: "send", commandId: randomBytes(6).toString("hex"), messageId: randomBytes(6).toString("hex"), companyId: a.company.id, whatsappId: a.whatsapp.id, chatJid: "PSID-9@messenger", body, ...extra }) as never;
  const lastResult = () => inbound.events.filter((e) => e.type === "command.result").at(-1) as Extract<InboundEvent, { type: "command.result" }>;

  it("24 h free (RESPONSE), then up to 7 days with HUMAN_AGENT, then ERR_WINDOW_CLOSED; text and attachments out", async () => {
    const start = t.clock.now.getTime();
    await mod.repo.touchWindow(a.company.id, a.whatsapp.id, "PSID-9@messenger", new Date(start).toISOString());
    await mod.sender.run(send("primeira resposta"));
    expect(lastResult()).toMatchObject({ ok: true });
    expect(sent.at(-1)).toEqual({ url: `https://graph.test/v21.0/${PAGE_A}/messages`, body: { recipient: { id: "PSID-9" }, messaging_type: "RESPONSE", message: { text: "primeira resposta" } } });

    stored.set("k/doc.pdf", { body: new Uint8Array([0x25, 0x50, 0x44, 0x46]), mimetype: "application/pdf" });
    await mod.sender.run(send("", { media: { key: "k/doc.pdf", mimetype: "application/pdf", filename: "doc.pdf", size: 4, kind: "document" } } as never));
    expect(sent.at(-1)!.body).toMatchObject({ messaging_type: "RESPONSE", filedata: "file:doc.pdf" });
    expect(JSON.parse((sent.at(-1)!.body as { message: string }).message)).toEqual({ attachment: { type: "file", payload: { is_reusable: false } } });

    t.clock.set(new Date(start + 30 * 3600_000));
    expect((await mod.service.window(a.company.id, a.whatsapp.id, "PSID-9@messenger")).state).toBe("humanAgent");
    await mod.sender.run(send("depois de um dia"));
    expect(sent.at(-1)!.body).toMatchObject({ messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" });

    const count = sent.length;
    t.clock.set(new Date(start + 7 * 24 * 3600_000 + 1000));
    await mod.sender.run(send("tarde demais"));
    expect(lastResult()).toMatchObject({ ok: false, error: "ERR_WINDOW_CLOSED" });
    expect(sent.length).toBe(count);
    t.clock.set(new Date(start));
  });
});
