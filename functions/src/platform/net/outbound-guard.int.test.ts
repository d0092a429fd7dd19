import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import { runJob } from "../../app/jobs-consumer";
import { BOT_TURN_JOB } from "../../features/bots/bot-runner.service";
import { createTenant, type Tenant } from "../../testing/factories";
import { customerMessage, deliver } from "../../testing/inbox-fixtures";
import { serveHttp } from "../../testing/serve-http";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { envelope, INBOUND, PHONE_NUMBER_ID, WABA_ID } from "../channels/cloud-api/meta-webhook.fixtures";
import { signatureFor } from "../channels/meta-webhook/webhook-signature";
import { companyPk, pad } from "../db/keys";
import { createMemoryInboundQueue } from "../queues/sqs-inbound.adapter";
import { createLocalSecretBox } from "../secrets/local-secret-box.adapter";
import { isPublicAddress } from "./address-policy";
import { createOutbound } from "./outbound-fetch";

/**
 * Issue 27 item 1 (SSRF) through the API and the jobs, against DynamoDB Local (docs/adr/0062). Three platforms:
 * - `guarded`: OUTBOUND_GUARD=on, the production address policy: loopback is refused at save and at call time;
 * - `local`: the guard off (the local platform's default): loopback works, the metadata service is still refused at
 *   save, and an outside error body never lands in an internal note;
 * - `played`: the guard on with a resolver and policy that play "public" (graph.test → 127.0.0.1) and "private"
 *   (internal.test → 127.0.0.2) on one machine, so a Graph API stand-in can answer media and paging URLs.
 */
type Seen = { path: string };
const seen: Seen[] = [];
let stub: Awaited<ReturnType<typeof serveHttp>>;
let port = 0;

/** One loopback server plays every outside party: an AI endpoint, a webhook, and the Graph API with its media. */
const outside = async (req: Request): Promise<Response> => {
  const u = new URL(req.url);
  seen.push({ path: `${u.pathname}${u.search}` });
  const p = u.pathname;
  if (p.endsWith("/chat/completions")) return Response.json({ error: { message: "SECRET-INTERNAL-BODY from an internal service" } }, { status: 400 });
  if (p === `/v23.0/${PHONE_NUMBER_ID}`) return Response.json({ display_phone_number: "+1 555-078-3881", verified_name: "Loja", quality_rating: "GREEN", messaging_limit_tier: "TIER_1K", id: PHONE_NUMBER_ID });
  if (p === "/v23.0/MEDIA_PRIVATE_NAME") return Response.json({ url: `http://internal.test:${port}/secret-media`, mime_type: "image/jpeg", id: "MEDIA_PRIVATE_NAME" });
  if (p === "/v23.0/MEDIA_PRIVATE_IP") return Response.json({ url: `http://127.0.0.2:${port}/secret-media`, mime_type: "image/jpeg", id: "MEDIA_PRIVATE_IP" });
  if (p === "/v23.0/MEDIA_REDIRECT") return Response.json({ url: `http://graph.test:${port}/redirect-media`, mime_type: "image/jpeg", id: "MEDIA_REDIRECT" });
  if (p === "/v23.0/MEDIA_OK") return Response.json({ url: `http://graph.test:${port}/ok-media`, mime_type: "image/jpeg", id: "MEDIA_OK" });
  if (p === "/redirect-media") return new Response(null, { status: 302, headers: { location: `http://internal.test:${port}/secret-media` } });
  if (p === "/ok-media") return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]));
  if (p === "/secret-media") return new Response("internal secrets");
  if (p === `/v23.0/${WABA_ID}/message_templates` && !u.searchParams.get("after")) {
    const next = `http://other.test:${port}/v23.0/${WABA_ID}/message_templates?after=PAGE2`;
    return Response.json({ data: [{ id: "1", name: "ola", language: "pt_BR", status: "APPROVED", category: "UTILITY", components: [{ type: "BODY", text: "Olá" }] }], paging: { next } });
  }
  return Response.json({ error: { message: "Unsupported" } }, { status: 400 });
};
const hits = (path: string) => seen.filter((s) => s.path.startsWith(path)).length;

beforeAll(async () => {
  stub = await serveHttp(outside);
  port = Number(new URL(stub.url).port);
});
afterAll(() => stub.close());

const cloudBody = (graphApiUrl: string, over: Record<string, unknown> = {}) => ({
  name: `Oficial ${Math.random().toString(36).slice(2, 7)}`,
  provider: "cloudapi",
  phoneNumberId: PHONE_NUMBER_ID,
  wabaId: WABA_ID,
  accessToken: "EAAG-TOKEN-SSRF",
  appSecret: "app-secret-ssrf-0123456789",
  graphApiUrl,
  ...over,
});
const integration = (urlN8N: string) => ({ type: "webhook", name: `Hook ${Math.random().toString(36).slice(2, 7)}`, urlN8N });
const promptBody = (tenant: Tenant, baseUrl: string) => ({ name: "Assistente", prompt: "Você ajuda.", apiKey: "sk-test-ssrf-000000000000", queueId: tenant.queues[1]!.id, baseUrl });

const runBots = async (t: TestApp) => {
  for (let round = 0; round < 10; round++) {
    const batch = t.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && p.job.name === BOT_TURN_JOB);
    if (!batch.length) return;
    await Promise.all(batch.map((p) => runJob(t.container, p.job)));
  }
};
/** A customer who reaches the Suporte queue (menu option 2), whose prompt answers the next message. */
const customerTalksToPrompt = async (t: TestApp, tenant: Tenant, number: string) => {
  for (const body of ["oi", "2", "preciso de ajuda"]) {
    t.clock.advance(1000);
    await deliver(t, customerMessage(tenant, { number, body, pushName: "Carla", extra: { timestamp: Math.floor(t.clock.now.getTime() / 1000) } }));
    t.clock.advance(1000);
    await runBots(t);
  }
  const tickets = (await t.call("GET", "/tickets?showAll=true", { token: tenant.adminToken })).body.tickets as { id: number; contact: { number: string } }[];
  const ticket = tickets.find((x) => x.contact.number === number)!;
  return JSON.stringify((await t.call("GET", `/ticket-notes/list?ticketId=${ticket.id}`, { token: tenant.adminToken })).body);
};
/** A stored URL changed under the save check (a row saved before the guard existed, or while it was off). */
const storeUrl = (t: TestApp, key: { pk: string; sk: string }, field: string, url: string) =>
  t.container.db.doc.send(new UpdateCommand({ TableName: t.container.db.tableName, Key: key, UpdateExpression: "SET #f = :u", ExpressionAttributeNames: { "#f": field }, ExpressionAttributeValues: { ":u": url } }));

describe("with the guard on (OUTBOUND_GUARD=on, the production policy)", () => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await createTestApp({ OUTBOUND_GUARD: "on", INBOX_DIRECTORY_TTL_MS: "0", BOT_TIMEOUT_MS: "2000" }, { overrides: { secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "ssrf-on-")), "key")) } });
    a = await createTenant(t, { plan: { connections: 5 } });
  });

  it("refuses loopback and the metadata service at save: Cloud API graphApiUrl, prompt baseUrl, integration URL", async () => {
    for (const url of [`${stub.url}/v23.0`, "http://169.254.169.254/latest", "http://localhost:8080/v1"]) {
      const conn = await t.call("POST", "/whatsapp", { token: a.adminToken, body: cloudBody(url) });
      expect([conn.status, conn.body.error], url).toEqual([400, "ERR_URL_NOT_ALLOWED"]);
      const prompt = await t.call("POST", "/prompt", { token: a.adminToken, body: promptBody(a, url) });
      expect([prompt.status, prompt.body.error], url).toEqual([400, "ERR_URL_NOT_ALLOWED"]);
      const hook = await t.call("POST", "/queueIntegration", { token: a.adminToken, body: integration(url) });
      expect([hook.status, hook.body.error], url).toEqual([400, "ERR_URL_NOT_ALLOWED"]);
    }
    expect(seen.length).toBe(0);
  });

  it("a Cloud API connection whose stored graphApiUrl points at loopback is refused at call time: nothing reaches it", async () => {
    const made = await t.call("POST", "/whatsapp", { token: a.adminToken, body: cloudBody("https://graph.invalid/v23.0") });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await storeUrl(t, { pk: companyPk(a.company.id), sk: `CLOUDAPI#${pad(made.body.id)}` }, "graphApiUrl", `${stub.url}/v23.0`);
    const before = seen.length;
    expect(await t.container.cloudApi.service.check(a.company.id, made.body.id)).toEqual({ ok: false, error: "unreachable" });
    await expect(t.container.cloudApi.service.syncTemplates(a.company.id, made.body.id)).rejects.toMatchObject({ code: "ERR_CLOUDAPI_CHECK_FAILED" });
    expect(seen.length).toBe(before);
  });

  it("an AI prompt whose stored baseUrl is on loopback is not called; the note says the address was refused", async () => {
    const prompt = await t.call("POST", "/prompt", { token: a.adminToken, body: promptBody(a, "https://ai.invalid/v1") });
    expect(prompt.status, JSON.stringify(prompt.body)).toBe(200);
    expect((await t.call("PUT", `/queue/${a.queues[1]!.id}`, { token: a.adminToken, body: { promptId: prompt.body.id } })).status).toBe(200);
    await storeUrl(t, { pk: companyPk(a.company.id), sk: `PROMPT#${pad(prompt.body.id)}` }, "baseUrl", `${stub.url}/v1`);
    const before = seen.length;
    const notes = await customerTalksToPrompt(t, a, "5511970001001");
    expect(seen.length).toBe(before);
    expect(notes).toContain("not allowed");
    expect(notes).not.toContain("SECRET-INTERNAL-BODY");
  });
});

describe("with the guard off (the local platform's default)", () => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", BOT_TIMEOUT_MS: "2000" });
    a = await createTenant(t, { plan: { connections: 5 } });
  });

  it("still refuses the metadata service at save (any form), and takes the loopback stand-ins", async () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://[::ffff:169.254.169.254]/x"]) {
      expect((await t.call("POST", "/queueIntegration", { token: a.adminToken, body: integration(url) })).body.error, url).toBe("ERR_URL_NOT_ALLOWED");
      expect((await t.call("POST", "/prompt", { token: a.adminToken, body: promptBody(a, url) })).body.error, url).toBe("ERR_URL_NOT_ALLOWED");
      expect((await t.call("POST", "/whatsapp", { token: a.adminToken, body: cloudBody(url) })).body.error, url).toBe("ERR_URL_NOT_ALLOWED");
    }
    expect((await t.call("POST", "/queueIntegration", { token: a.adminToken, body: integration(`${stub.url}/hook`) })).status).toBe(200);
  });

  it("an AI endpoint's error body never lands in the internal note: the status does", async () => {
    const prompt = await t.call("POST", "/prompt", { token: a.adminToken, body: promptBody(a, `${stub.url}/v1`) });
    expect(prompt.status, JSON.stringify(prompt.body)).toBe(200);
    expect((await t.call("PUT", `/queue/${a.queues[1]!.id}`, { token: a.adminToken, body: { promptId: prompt.body.id } })).status).toBe(200);
    const before = hits("/v1/chat/completions");
    const notes = await customerTalksToPrompt(t, a, "5511970001002");
    expect(hits("/v1/chat/completions")).toBeGreaterThan(before);
    expect(notes).toContain("model answered 400");
    expect(notes).not.toContain("SECRET-INTERNAL-BODY");
  });
});

describe("with the guard on, public and private played on loopback: provider answers", () => {
  let t: TestApp;
  let a: Tenant;
  let hookPath = "";
  const inbound = createMemoryInboundQueue();
  const names: Record<string, string> = { "graph.test": "127.0.0.1", "other.test": "127.0.0.1", "internal.test": "127.0.0.2" };
  beforeAll(async () => {
    const outbound = createOutbound({
      on: true,
      resolveAll: async (host) => (names[host] ? [{ address: names[host]!, family: 4 }] : []),
      // 127.0.0.1 plays a public address here; everything else follows the production policy
      allowAddress: (ip) => ip === "127.0.0.1" || isPublicAddress(ip),
    });
    t = await createTestApp({}, { overrides: { inbound, outbound, secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "ssrf-played-")), "key")) } });
    a = await createTenant(t, { plan: { connections: 5 } });
    const made = await t.call("POST", "/whatsapp", { token: a.adminToken, body: cloudBody(`http://graph.test:${port}/v23.0`) });
    expect([made.status, made.body.status], JSON.stringify(made.body)).toEqual([200, "CONNECTED"]);
    hookPath = new URL(made.body.cloudApi.webhookUrl).pathname.replace(/^\/api/, "");
  });

  /** A customer's image whose media id the Graph stand-in answers with `mediaId`'s URL, through the webhook. */
  const imageEvent = async (mediaId: string): Promise<InboundEvent> => {
    const image = { ...INBOUND.image!, id: `wamid.SSRF${mediaId}`, image: { ...INBOUND.image!.image!, id: mediaId } };
    const raw = JSON.stringify(envelope({ messages: [image] }));
    const res = await t.call("POST", hookPath, { rawBody: raw, headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(raw, "app-secret-ssrf-0123456789") } });
    expect(res.status).toBe(200);
    return inbound.events.splice(0).at(-1)!;
  };

  it("fetches a media URL on a public address (the control)", async () => {
    const got = await t.container.cloudApi.inboundStep.prepare(await imageEvent("MEDIA_OK"));
    expect(got.type === "message" && got.message.media?.size).toBe(4);
  });

  it("never fetches a media URL the provider answers on a private name or IP, nor a redirect to one", async () => {
    for (const id of ["MEDIA_PRIVATE_NAME", "MEDIA_PRIVATE_IP", "MEDIA_REDIRECT"]) {
      const event = await imageEvent(id);
      await expect(t.container.cloudApi.inboundStep.prepare(event), id).rejects.toThrow(/not a public address/);
    }
    expect(hits("/redirect-media")).toBe(1);
    expect(hits("/secret-media")).toBe(0);
  });

  it("refuses an absolute paging.next off the Graph API's origin (it would carry the token): the sync fails, the URL is never called", async () => {
    const id = (await t.call("GET", "/whatsapp", { token: a.adminToken })).body.find((w: { provider: string }) => w.provider === "cloudapi").id as number;
    await expect(t.container.cloudApi.service.syncTemplates(a.company.id, id)).rejects.toMatchObject({ code: "ERR_CLOUDAPI_CHECK_FAILED" });
    expect(seen.filter((s) => s.path.includes("after=PAGE2"))).toEqual([]);
  });
});
