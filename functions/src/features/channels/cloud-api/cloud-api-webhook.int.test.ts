import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { inboundEventSchema, type InboundEvent } from "@atende/shared/contracts/queue-messages";
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
import { envelope, INBOUND, STATUSES } from "../../../platform/channels/cloud-api/meta-webhook.fixtures";
import { createCloudApiModule, type CloudApiModule } from "./cloud-api.module";
import { createDynamoGates } from "./cloud-api-gates.repository";
import { cloudApiWebhookRoutes } from "./cloud-api-webhook.routes";
import { WEBHOOK_PATH } from "./cloud-api.service";

/**
 * The Cloud API webhook against DynamoDB Local: settings stored sealed, Meta's verification handshake, signature
 * checks (nothing enqueued without a good one), every documented inbound type and status mapped and stamped with
 * the connection's company, and the consumer step (wamid translation, media into our storage, the window).
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let mod: CloudApiModule;
let http: Hono;
const inbound = createMemoryInboundQueue();
const stored = new Map<string, { body: Uint8Array; mimetype: string }>();
const media: MediaStore = { put: async (k, body, mimetype) => void stored.set(k, { body, mimetype }), get: async (k) => stored.get(k) ?? null, delete: async (k) => void stored.delete(k) };
/** A Graph API stand-in for media downloads: id → URL → bytes, only with the right token. */
const graphFetch = async (url: string, init?: RequestInit) => {
  const auth = new Headers(init?.headers).get("authorization");
  if (auth !== "Bearer TOKEN-A") return new Response(JSON.stringify({ error: { message: "Invalid OAuth access token", code: 190 } }), { status: 401 });
  if (url.endsWith("/1003383421387256")) return Response.json({ messaging_product: "whatsapp", url: "https://lookaside.test/media/abc", mime_type: "image/jpeg", sha256: "x", file_size: 4, id: "1003383421387256" });
  if (url === "https://lookaside.test/media/abc") return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]));
  // Meta's documented message_templates answer, in two pages
  if (url.includes("/102290129340398/message_templates"))
    return Response.json({
      data: [{ name: "retomar", language: "pt_BR", status: "APPROVED", category: "UTILITY", id: "1", components: [{ type: "BODY", text: "Olá {{1}}" }] }],
      paging: { cursors: { before: "a", after: "b" }, next: "https://graph.test/v23.0/102290129340398/templates-page-2" },
    });
  if (url.endsWith("/templates-page-2"))
    return Response.json({ data: [{ name: "promo", language: "pt_BR", status: "PENDING", category: "MARKETING", id: "2", components: [{ type: "BODY", text: "Promo" }] }], paging: { cursors: { before: "b", after: "c" } } });
  if (url.includes(`/${PHONE_A}?fields=`)) return Response.json({ display_phone_number: "+1 555-078-3881", verified_name: "Lucky Shrub", quality_rating: "GREEN", messaging_limit_tier: "TIER_1K", id: PHONE_A });
  return new Response(JSON.stringify({ error: { message: "Unsupported get request", code: 100 } }), { status: 400 });
};
const PHONE_A = "106540352242922";
const PHONE_B = "106540352249999";

const hookOf = async (tenant: Tenant) => (await mod.service.view(tenant.company.id, tenant.whatsapp.id, "https://app.test"))!;
const post = (hookUrl: string, body: unknown, secret: string | null) => {
  const raw = JSON.stringify(body);
  return http.request(new URL(hookUrl).pathname, { method: "POST", headers: { "content-type": "application/json", ...(secret !== null ? { "x-hub-signature-256": signatureFor(raw, secret) } : {}) }, body: raw });
};

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
  mod = createCloudApiModule({
    db: t.container.db,
    config: {},
    secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "cloudapi-")), "key")),
    media,
    inbound,
    jobs: createMemoryJobQueue(),
    clock: () => t.clock.now,
    logger: createLogger("silent"),
    fetch: graphFetch,
  });
  http = new Hono();
  http.route(WEBHOOK_PATH, cloudApiWebhookRoutes(mod.webhook));
  const fields = (phoneNumberId: string, token: string, secret: string) => mod.service.parseFields({ phoneNumberId, wabaId: "102290129340398", accessToken: token, appSecret: secret, graphApiUrl: "https://graph.test/v23.0" }, false);
  await mod.service.configure(a.company.id, a.whatsapp.id, await fields(PHONE_A, "TOKEN-A", "secret-of-company-a"));
  await mod.service.configure(b.company.id, b.whatsapp.id, await fields(PHONE_B, "TOKEN-B", "secret-of-company-b"));
});

describe("Cloud API connection settings", () => {
  it("are stored with the token and app secret sealed, answered masked with the webhook URL and verify token", async () => {
    const item = (await t.container.db.doc.send(new GetCommand({ TableName: t.container.db.tableName, Key: { pk: companyPk(a.company.id), sk: `CLOUDAPI#${pad(a.whatsapp.id)}` } }))).Item!;
    expect(isSealed(item.accessToken as string)).toBe(true);
    expect(isSealed(item.appSecret as string)).toBe(true);
    expect(JSON.stringify(item)).not.toContain("TOKEN-A");
    const view = await hookOf(a);
    expect(view).toMatchObject({ phoneNumberId: PHONE_A, accessToken: "••••••••", appSecret: "••••••••ny-a", graphApiUrl: "https://graph.test/v23.0" });
    expect(view.webhookUrl).toMatch(/^https:\/\/app\.test\/api\/channels\/cloud-api\/webhook\/[\w-]{32}$/);
    expect(view.verifyToken).toMatch(/^[\w-]{24}$/);
    // an edit with the masked values keeps the secrets and the webhook URL
    await mod.service.configure(a.company.id, a.whatsapp.id, await mod.service.parseFields({ ...view, accessToken: view.accessToken, appSecret: "" }, true));
    expect(await hookOf(a)).toEqual(view);
    expect((await mod.service.settings(a.company.id, a.whatsapp.id))!.accessToken).toBe("TOKEN-A");
    await expect(mod.service.parseFields({ phoneNumberId: PHONE_A, wabaId: "1", accessToken: "x", appSecret: "y" }, false)).rejects.toThrow();
    await expect(mod.service.parseFields({ phoneNumberId: PHONE_A, wabaId: "102290129340398", accessToken: "", appSecret: "y" }, false)).rejects.toThrow();
  });
});

describe("the webhook", () => {
  it("answers Meta's verification only with the connection's verify token", async () => {
    const view = await hookOf(a);
    const path = new URL(view.webhookUrl).pathname;
    const ok = await http.request(`${path}?hub.mode=subscribe&hub.verify_token=${view.verifyToken}&hub.challenge=1158201444`);
    expect([ok.status, await ok.text()]).toEqual([200, "1158201444"]);
    expect((await http.request(`${path}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`)).status).toBe(403);
    // company B's verify token does not open company A's URL
    expect((await http.request(`${path}?hub.mode=subscribe&hub.verify_token=${(await hookOf(b)).verifyToken}&hub.challenge=1`)).status).toBe(403);
    expect((await http.request(`${WEBHOOK_PATH}/${randomBytes(24).toString("base64url")}?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status).toBe(403);
  });

  it("refuses a missing, wrong or other company's signature with 403 and enqueues nothing", async () => {
    const { webhookUrl } = await hookOf(a);
    const before = inbound.events.length;
    expect((await post(webhookUrl, envelope({ messages: [INBOUND.text!] }), null)).status).toBe(403);
    expect((await post(webhookUrl, envelope({ messages: [INBOUND.text!] }), "not-the-secret")).status).toBe(403);
    expect((await post(webhookUrl, envelope({ messages: [INBOUND.text!] }), "secret-of-company-b")).status).toBe(403);
    const raw = JSON.stringify(envelope({ messages: [INBOUND.text!] }));
    const tampered = await http.request(new URL(webhookUrl).pathname, { method: "POST", headers: { "x-hub-signature-256": signatureFor(raw, "secret-of-company-a") }, body: raw.replace("another color", "another colour") });
    expect(tampered.status).toBe(403);
    expect((await post(`https://app.test${WEBHOOK_PATH}/${randomBytes(24).toString("base64url")}`, envelope({ messages: [INBOUND.text!] }), "secret-of-company-a")).status).toBe(404);
    expect(inbound.events.length).toBe(before);
  });

  it("enqueues every documented inbound type and status for the connection's company, in the inbound contract", async () => {
    const { webhookUrl } = await hookOf(a);
    const before = inbound.events.length;
    const types = ["text", "image", "audio", "video", "document", "sticker", "location", "contacts", "reaction", "button", "button_reply", "list_reply"] as const;
    const res = await post(webhookUrl, envelope({ messages: types.map((k) => INBOUND[k]!), statuses: Object.values(STATUSES) }), "secret-of-company-a");
    expect(res.status).toBe(200);
    const events = inbound.events.slice(before);
    expect(events.map((e) => inboundEventSchema.parse(e))).toHaveLength(types.length + 6);
    expect(events.every((e) => e.companyId === a.company.id && e.whatsappId === a.whatsapp.id)).toBe(true);
    expect(events.filter((e) => e.type === "message").map((e) => (e as Extract<InboundEvent, { type: "message" }>).message.type)).toEqual([
      "chat", "image", "audio", "video", "document", "sticker", "locationMessage", "contactMessage", "reactionMessage", "chat", "chat", "chat",
    ]);
    expect(events.filter((e) => e.type === "message.update").map((e) => (e as { ack: number }).ack)).toEqual([2, 3, 4, 5]);
    expect(events.filter((e) => e.type === "command.result").map((e) => (e as { error: string }).error)).toEqual(["131047 Re-engagement message", "131026 Message undeliverable"]);
  });

  it("cross-tenant: company A's number posted to company B's URL (signed with B's secret) creates nothing, in A or B", async () => {
    const before = inbound.events.length;
    const res = await post((await hookOf(b)).webhookUrl, envelope({ messages: [INBOUND.text!] }, PHONE_A), "secret-of-company-b");
    expect(res.status).toBe(200);
    expect(inbound.events.length).toBe(before);
    // and B's own number on B's URL is stamped with B only
    await post((await hookOf(b)).webhookUrl, envelope({ messages: [INBOUND.text!] }, PHONE_B), "secret-of-company-b");
    expect(inbound.events.slice(before).map((e) => [e.companyId, e.whatsappId])).toEqual([[b.company.id, b.whatsapp.id]]);
  });
});

describe("the consumer step", () => {
  it("downloads media with the connection's token into our storage before the message is stored", async () => {
    const { webhookUrl } = await hookOf(a);
    const before = inbound.events.length;
    await post(webhookUrl, envelope({ messages: [INBOUND.image!] }), "secret-of-company-a");
    const ready = await mod.inboundStep.prepare(inbound.events[before]!);
    if (ready.type !== "message") throw new Error("not a message");
    expect(ready.message.remoteMedia).toBeUndefined();
    expect(ready.message.media).toEqual({ key: `${a.company.id}/${INBOUND.image!.id}/image-1003383421387256.jpg`, mimetype: "image/jpeg", filename: "image-1003383421387256.jpg", size: 4 });
    expect([...stored.get(ready.message.media!.key)!.body]).toEqual([0xff, 0xd8, 0xff, 0xe0]);
  });

  it("turns wamids of our messages into our ids, leaves QR events untouched, and restarts the window at the customer's message", async () => {
    await mod.repo.ids.link(a.company.id, "3EB0OURS", "wamid.OURS01", t.clock.now);
    const [status] = (await import("../../../platform/channels/cloud-api/webhook.mapper")).mapWebhook(envelope({ statuses: [STATUSES.read!] }), { companyId: a.company.id, whatsappId: a.whatsapp.id, phoneNumberId: PHONE_A }).events;
    expect(await mod.inboundStep.prepare(status!)).toMatchObject({ type: "message.update", messageId: "3EB0OURS", ack: 4 });
    const qr: InboundEvent = { type: "message.update", eventId: "e", companyId: a.company.id, whatsappId: a.whatsapp.id, messageId: "3EB0QR", chatJid: "5511@s.whatsapp.net", ack: 2 };
    expect(mod.inboundStep.needs(qr)).toBe(false);
    expect(await mod.inboundStep.prepare(qr)).toBe(qr);

    const chat = "16505551234@s.whatsapp.net";
    t.clock.set(new Date(1749416383_000 + 3600_000));
    const msg = { type: "message" as const, eventId: INBOUND.text!.id!, companyId: a.company.id, whatsappId: a.whatsapp.id, message: { id: INBOUND.text!.id!, chatJid: chat, fromMe: false, isGroup: false, sender: { jid: chat }, type: "chat" as const, body: "x", isForwarded: false, timestamp: 1749416383 } };
    await mod.inboundStep.prepare(msg);
    expect(await mod.service.windowOf(a.company.id, a.whatsapp.id, chat)).toMatchObject({ kind: "open", remainingMs: 23 * 3600_000 });
    t.clock.set(new Date(1749416383_000 + 25 * 3600_000));
    expect((await mod.service.windowOf(a.company.id, a.whatsapp.id, chat)).kind).toBe("closed");
    // an older message arriving late does not move the window back
    await mod.inboundStep.prepare({ ...msg, message: { ...msg.message, timestamp: 1749416383 - 100 } });
    expect(await mod.repo.lastInboundAt(a.company.id, a.whatsapp.id, chat)).toBe(new Date(1749416383_000).toISOString());
    expect(await mod.service.windowOf(b.company.id, b.whatsapp.id, chat)).toEqual({ kind: "closed", closedAt: null });
  });
});

describe("templates, the connection test and the outbound guard", () => {
  it("syncs every page of the WABA's templates, sends approved ones only with every variable filled, daily from the tick", async () => {
    const list = await mod.service.syncTemplates(a.company.id, a.whatsapp.id);
    expect(list.map((x) => [x.name, x.status])).toEqual([["promo", "PENDING"], ["retomar", "APPROVED"]]);
    await expect(mod.service.prepareTemplate(a.company.id, a.whatsapp.id, { name: "promo", language: "pt_BR", values: { header: {}, body: {} } })).rejects.toMatchObject({ code: "ERR_TEMPLATE_NOT_APPROVED" });
    await expect(mod.service.prepareTemplate(a.company.id, a.whatsapp.id, { name: "nope", language: "pt_BR", values: { header: {}, body: {} } })).rejects.toMatchObject({ code: "ERR_TEMPLATE_NOT_FOUND" });
    await expect(mod.service.prepareTemplate(a.company.id, a.whatsapp.id, { name: "retomar", language: "pt_BR", values: { header: {}, body: {} } })).rejects.toMatchObject({ code: "ERR_TEMPLATE_VALUES_MISSING" });
    expect(await mod.service.prepareTemplate(a.company.id, a.whatsapp.id, { name: "retomar", language: "pt_BR", values: { header: {}, body: { "1": "Ana" } } })).toEqual({
      body: "Olá Ana",
      template: { name: "retomar", language: "pt_BR", components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }] },
    });
    // company B cannot read company A's templates through its own connection id
    expect(await mod.service.listTemplates(b.company.id, a.whatsapp.id)).toEqual([]);
    // the tick syncs what is a day old; B's token is refused by the stand-in, and is not retried every minute
    t.clock.advance(25 * 3600_000);
    expect(await mod.service.syncDue(t.clock.now)).toBe(1);
    expect(await mod.service.syncDue(t.clock.now)).toBe(0);
  });

  it("the test reads display number, verified name, quality rating and messaging limit tier", async () => {
    expect(await mod.service.check(a.company.id, a.whatsapp.id)).toEqual({ ok: true, info: { displayPhoneNumber: "+1 555-078-3881", verifiedName: "Lucky Shrub", qualityRating: "GREEN", messagingLimitTier: "TIER_1K" } });
    expect(await mod.service.check(b.company.id, b.whatsapp.id)).toEqual({ ok: false, error: "190 Invalid OAuth access token" });
    expect((await mod.service.view(a.company.id, a.whatsapp.id, "https://app.test"))!.phoneInfo).toMatchObject({ verifiedName: "Lucky Shrub" });
  });

  it("refuses edit and delete, and free-form content outside the window, on Cloud API connections only", async () => {
    const chat = "5511977776666@s.whatsapp.net";
    await expect(mod.service.assertOutbound(a.company.id, a.whatsapp.id, chat, "edit")).rejects.toMatchObject({ code: "ERR_CHANNEL_UNSUPPORTED" });
    await expect(mod.service.assertOutbound(a.company.id, a.whatsapp.id, chat, "text")).rejects.toMatchObject({ code: "ERR_WINDOW_CLOSED" });
    await expect(mod.service.assertOutbound(a.company.id, a.whatsapp.id, chat, "template")).resolves.toBeUndefined();
    await mod.repo.touchWindow(a.company.id, a.whatsapp.id, chat, new Date(t.clock.now.getTime() - 3600_000).toISOString());
    await expect(mod.service.assertOutbound(a.company.id, a.whatsapp.id, chat, "text")).resolves.toBeUndefined();
    // a QR connection (no Cloud API settings) has no window and can edit
    const qr = await createTenant(t);
    await expect(mod.service.assertOutbound(qr.company.id, qr.whatsapp.id, chat, "edit")).resolves.toBeUndefined();
    await expect(mod.service.assertOutbound(qr.company.id, qr.whatsapp.id, chat, "text")).resolves.toBeUndefined();
  });
});

describe("pacing shared by every Lambda", () => {
  it("lets perSecond sends through per second and number, and spaces campaign messages to one person 6 s apart", async () => {
    const gates = createDynamoGates(t.container.db);
    const phone = `P${randomBytes(3).toString("hex")}`;
    const now = 1_700_000_000_250;
    const waits = [];
    for (let i = 0; i < 7; i++) waits.push(await gates.throughput(phone, 3, now));
    expect(waits).toEqual([0, 0, 0, 750, 750, 750, 1750]);
    expect(await gates.throughput(`${phone}x`, 3, now)).toBe(0);
    expect(await gates.pair(phone, "5511", now)).toBe(0);
    expect(await gates.pair(phone, "5511", now + 1000)).toBe(5000);
    expect(await gates.pair(phone, "5511", now + 1000)).toBe(11_000);
    expect(await gates.pair(phone, "5522", now + 1000)).toBe(0);
    expect(await gates.pair(phone, "5511", now + 60_000)).toBe(0);
  });
});
