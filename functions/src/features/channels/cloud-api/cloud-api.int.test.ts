import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { recordingGraphApi } from "../../../testing/graph-api-stand-in";
import { adminTickets, deliver } from "../../../testing/inbox-fixtures";
import { pdfFile } from "../../../testing/spec-client";
import { runJob } from "../../../app/jobs-consumer";
import { runTick } from "../../../app/tick";
import { createMemoryInboundQueue } from "../../../platform/queues/sqs-inbound.adapter";
import { createLocalSecretBox } from "../../../platform/secrets/local-secret-box.adapter";
import { signatureFor } from "../../../platform/channels/meta-webhook/webhook-signature";
import { envelope, INBOUND } from "../../../platform/channels/cloud-api/meta-webhook.fixtures";

/**
 * The Cloud API through the whole API (issue 12): connections with provider "cloudapi" (no session host), the
 * public webhook into the same inbound pipeline as QR messages, replies out through the Graph API with acks from
 * statuses, the 24-hour window and templates, unsupported actions refused, and company B never reaching A's data.
 */
const inbound = createMemoryInboundQueue();
/** A Graph API stand-in: records calls; answers the number, templates, media and sends like Meta. */
const graph = recordingGraphApi({
  token: "EAAG-TOKEN-OF-COMPANY-A",
  phone: { id: "106540352242922", displayPhoneNumber: "+55 11 4000-0001", verifiedName: "Loja A" },
  templates: () => [{ name: "retomar_conversa", language: "pt_BR", status: "APPROVED", category: "UTILITY", id: "9", components: [{ type: "BODY", text: "Olá {{1}}, podemos continuar?" }] }],
  messageIdPrefix: "OUT",
  answer: ({ url, method }) => {
    if (method === "POST" && url.endsWith("/106540352242922/media")) return Response.json({ id: `MEDIA-${++uploads}` });
    if (url.endsWith("/1003383421387256")) return Response.json({ url: "https://lookaside.test/m/1", mime_type: "image/jpeg", file_size: 4, id: "1003383421387256" });
    // a JPEG's first bytes: the stored type comes from the bytes, never from what the sender declares
    if (url === "https://lookaside.test/m/1") return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]));
    return undefined;
  },
});
const graphCalls = graph.calls;
let uploads = 0;

let t: TestApp;
let a: Tenant;
let b: Tenant;
let cloudId: number;
let hookPath: string;
let verifyToken: string;
const APP_SECRET = "app-secret-of-company-a-0123";

const cloudBody = (over: Record<string, unknown> = {}) => ({
  name: "Oficial",
  provider: "cloudapi",
  phoneNumberId: "106540352242922",
  wabaId: "102290129340398",
  accessToken: "EAAG-TOKEN-OF-COMPANY-A",
  appSecret: APP_SECRET,
  graphApiUrl: "https://graph.test/v23.0",
  ...over,
});
const post = async (path: string, payload: unknown, secret: string | null) => {
  const raw = JSON.stringify(payload);
  return t.call("POST", path, { rawBody: raw, headers: { "content-type": "application/json", ...(secret ? { "x-hub-signature-256": signatureFor(raw, secret) } : {}) } });
};
/** What the webhook put on inbound.fifo, consumed like the inbound Lambda does. */
const consumeQueued = async () => {
  const events = inbound.events.splice(0);
  if (events.length) await deliver(t, ...events);
  return events;
};
const runCloudJobs = async () => {
  const jobs = t.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && (p.job as { name: string }).name === "cloudapi.send");
  for (const p of jobs) await runJob(t.container, p.job as JobMessage);
  return jobs;
};

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { inbound, graphFetch: graph.fetch, secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "cloudapi-api-")), "key")) } });
  a = await createTenant(t, { plan: { connections: 5 } });
  b = await createTenant(t, { plan: { connections: 5 } });
});

describe("a Cloud API connection", () => {
  it("POST /whatsapp with provider cloudapi: settings stored sealed and answered masked, webhook URL and verify token, CONNECTED from the number check, no session host", async () => {
    const commandsBefore = t.commands.sent.length;
    const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: cloudBody() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Oficial", provider: "cloudapi", status: "CONNECTED", number: "551140000001" });
    expect(res.body.cloudApi).toMatchObject({ phoneNumberId: "106540352242922", accessToken: "••••••••NY-A", appSecret: "••••••••0123", phoneInfo: { verifiedName: "Loja A", qualityRating: "GREEN", messagingLimitTier: "TIER_1K" } });
    expect(JSON.stringify(res.body)).not.toContain("EAAG-TOKEN");
    expect(JSON.stringify(res.body)).not.toContain(APP_SECRET);
    cloudId = res.body.id;
    hookPath = new URL(res.body.cloudApi.webhookUrl).pathname.replace(/^\/api/, "");
    verifyToken = res.body.cloudApi.verifyToken;
    expect(t.commands.sent.slice(commandsBefore).filter((c) => c.whatsappId === cloudId)).toEqual([]);
    // a PUT with the masked secrets keeps them
    const put = await t.call("PUT", `/whatsapp/${cloudId}`, { token: a.adminToken, body: { ...cloudBody(), accessToken: res.body.cloudApi.accessToken, appSecret: "" } });
    expect(put.status).toBe(200);
    expect(put.body.cloudApi.webhookUrl).toBe(res.body.cloudApi.webhookUrl);
    expect(put.body.status).toBe("CONNECTED");
  });

  it("refuses a Cloud API connection without its secrets or ids, storing nothing", async () => {
    const before = (await t.call("GET", "/whatsapp", { token: a.adminToken })).body.length;
    for (const over of [{ accessToken: "" }, { appSecret: "" }, { phoneNumberId: "abc" }]) {
      const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: cloudBody({ name: `X ${JSON.stringify(over)}`, ...over }) });
      expect([res.status, res.body.error]).toEqual([400, "ERR_VALIDATION"]);
    }
    expect((await t.call("GET", "/whatsapp", { token: a.adminToken })).body.length).toBe(before);
  });

  it("the webhook answers Meta's verification and refuses unsigned posts, storing nothing", async () => {
    const ok = await t.call("GET", `${hookPath}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=424242`);
    expect([ok.status, ok.body]).toEqual([200, 424242]);
    expect((await t.call("GET", `${hookPath}?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`)).status).toBe(403);
    const ticketsBefore = (await adminTickets(t, a)).length;
    expect((await post(hookPath, envelope({ messages: [INBOUND.text!] }), null)).status).toBe(403);
    expect((await post(hookPath, envelope({ messages: [INBOUND.text!] }), "wrong-secret")).status).toBe(403);
    expect(inbound.events).toEqual([]);
    await consumeQueued();
    expect((await adminTickets(t, a)).length).toBe(ticketsBefore);
  });

  it("a customer's messages enter the same pipeline: contact, ticket, media in our storage", async () => {
    expect((await post(hookPath, envelope({ messages: [INBOUND.text!, INBOUND.image!, INBOUND.location!] }), APP_SECRET)).status).toBe(200);
    await consumeQueued();
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === "16505551234");
    expect(ticket).toBeTruthy();
    const list = await t.call("GET", `/messages/${ticket!.id}`, { token: a.adminToken });
    const msgs = list.body.messages as { id: string; body: string; mediaType: string; mediaUrl: string | null; fromMe: boolean }[];
    expect(msgs.map((m) => [m.id, m.mediaType])).toEqual([
      [INBOUND.text!.id, "chat"],
      [INBOUND.image!.id, "image"],
      [INBOUND.location!.id, "locationMessage"],
    ]);
    expect(msgs[1]!.mediaUrl).toBeTruthy();
    expect(list.body.ticket.whatsappId ?? list.body.ticket.whatsapp?.id).toBe(cloudId);
    // the same wamid again (Meta retries) stores nothing new
    await post(hookPath, envelope({ messages: [INBOUND.text!] }), APP_SECRET);
    await consumeQueued();
    expect((await t.call("GET", `/messages/${ticket!.id}`, { token: a.adminToken })).body.messages).toHaveLength(3);
  });

  it("a reply goes out through the Graph API; acks follow Meta's statuses (read: blue ticks); a failure shows Meta's code", async () => {
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === "16505551234")!;
    // the ticket's window: the customer wrote (fixture time) — move the clock to an hour after it
    t.clock.set(new Date((Number(INBOUND.location!.timestamp) + 3600) * 1000));
    const win = await t.call("GET", `/cloud-api/tickets/${ticket.id}/window`, { token: a.adminToken });
    expect(win.body).toMatchObject({ kind: "open", remainingMs: 23 * 3600_000 });
    const res = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "Temos sim, em verde!" } });
    expect(res.status).toBe(201);
    const ours = (res.body as { id: string }).id;
    // the send (and the read receipt of the customer's messages, opened above)
    expect((await runCloudJobs()).map((j) => ((j.job as unknown as { payload: { command: { type: string } } }).payload.command.type)).sort()).toEqual(["read", "send"]);
    expect(graphCalls.some((c) => JSON.stringify(c.body) === JSON.stringify({ messaging_product: "whatsapp", status: "read", message_id: INBOUND.location!.id }))).toBe(true);
    const call = graphCalls.findLast((c) => c.url.endsWith("/106540352242922/messages"))!;
    expect(call.body).toMatchObject({ messaging_product: "whatsapp", to: "16505551234", type: "text", text: { body: "Temos sim, em verde!" } });
    await consumeQueued(); // command.result: accepted (ack 1)
    const wamid = graph.lastMessageId();
    const status = (s: string, extra = {}) => ({ id: wamid, status: s, timestamp: "1", recipient_id: "16505551234", ...extra });
    await post(hookPath, envelope({ statuses: [status("sent"), status("delivered"), status("read")] }), APP_SECRET);
    await consumeQueued();
    const after = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { id: string; ack: number; error: string | null }[];
    expect(after.find((m) => m.id === ours)).toMatchObject({ ack: 4, error: null });

    const res2 = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "segunda" } });
    const ours2 = (res2.body as { id: string }).id;
    await runCloudJobs();
    await consumeQueued();
    await post(hookPath, envelope({ statuses: [{ id: graph.lastMessageId(), status: "failed", timestamp: "2", recipient_id: "16505551234", errors: [{ code: 131026, title: "Message undeliverable" }] }] }), APP_SECRET);
    await consumeQueued();
    const failed = ((await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { id: string; error: string | null }[]).find((m) => m.id === ours2);
    expect(failed?.error).toBe("131026 Message undeliverable");
  });

  it("several files in one send reach the customer in the order given, even when the queue runs their jobs newest first", async () => {
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === "16505551234")!;
    const form = new FormData();
    for (const name of ["um.pdf", "dois.pdf", "tres.pdf"]) form.append("medias", pdfFile(name));
    form.append("body", "Seguem os três");
    const res = await t.app.request(`/api/messages/${ticket.id}`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(res.status).toBe(201);
    const before = graphCalls.length;
    for (let round = 0; round < 5; round++) {
      const jobs = t.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && (p.job as { name: string }).name === "cloudapi.send").reverse();
      for (const p of jobs) await runJob(t.container, p.job as JobMessage);
    }
    const sent = graphCalls.slice(before).filter((c) => c.url.endsWith("/106540352242922/messages") && (c.body as { type?: string })?.type === "document");
    expect(sent.map((c) => (c.body as { document: { filename: string } }).document.filename)).toEqual(["um.pdf", "dois.pdf", "tres.pdf"]);
    await consumeQueued();
  });

  it("editing and deleting for everyone are refused with a catalogue code", async () => {
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === "16505551234")!;
    const mine = ((await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { id: string; fromMe: boolean }[]).find((m) => m.fromMe)!;
    const edit = await t.call("POST", `/messages/edit/${mine.id}`, { token: a.adminToken, body: { body: "editado" } });
    const del = await t.call("DELETE", `/messages/${mine.id}`, { token: a.adminToken });
    expect([edit.status, edit.body?.error]).toEqual([400, "ERR_CHANNEL_UNSUPPORTED"]);
    expect([del.status, del.body?.error]).toEqual([400, "ERR_CHANNEL_UNSUPPORTED"]);
  });

  it("after 24 hours free text is refused with ERR_WINDOW_CLOSED and nothing stored; an approved template goes out", async () => {
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === "16505551234")!;
    t.clock.advance(24 * 3600_000);
    expect((await t.call("GET", `/cloud-api/tickets/${ticket.id}/window`, { token: a.adminToken })).body.kind).toBe("closed");
    const before = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages.length;
    const refused = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "ainda aí?" } });
    expect([refused.status, refused.body]).toEqual([409, { error: "ERR_WINDOW_CLOSED" }]);
    expect((await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages.length).toBe(before);
    expect(t.jobs.pending).toEqual([]);

    expect((await t.call("POST", `/cloud-api/${cloudId}/templates/sync`, { token: a.adminToken })).status).toBe(200);
    const missing = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { template: { name: "retomar_conversa", language: "pt_BR" } } });
    expect([missing.status, missing.body.error]).toEqual([400, "ERR_TEMPLATE_VALUES_MISSING"]);
    const ok = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { template: { name: "retomar_conversa", language: "pt_BR", values: { body: { "1": "Sheena" } } } } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ body: "Olá Sheena, podemos continuar?", fromMe: true });
    await runCloudJobs();
    expect(graphCalls.findLast((c) => c.url.endsWith("/messages"))!.body).toMatchObject({
      type: "template",
      template: { name: "retomar_conversa", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Sheena" }] }] },
    });
  });

  it("the daily tick syncs templates; the test button reads the number", async () => {
    t.clock.advance(25 * 3600_000);
    const before = graphCalls.filter((c) => c.url.includes("/message_templates")).length;
    await runTick(t.container);
    expect(graphCalls.filter((c) => c.url.includes("/message_templates")).length).toBe(before + 1);
    const check = await t.call("POST", `/cloud-api/${cloudId}/test`, { token: a.adminToken });
    expect(check.body).toMatchObject({ ok: true, info: { displayPhoneNumber: "+55 11 4000-0001", verifiedName: "Loja A" } });
  });
});

describe("cross-tenant", () => {
  it("company B's user reaches none of A's Cloud API routes, and a webhook for A's connection creates nothing in B", async () => {
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === "16505551234")!;
    for (const [method, path] of [
      ["GET", `/cloud-api/${cloudId}/templates`],
      ["POST", `/cloud-api/${cloudId}/templates/sync`],
      ["POST", `/cloud-api/${cloudId}/test`],
    ] as const) {
      const res = await t.call(method, path, { token: b.adminToken });
      expect([path, res.status, res.body.error]).toEqual([path, 404, "ERR_NO_WAPP_FOUND"]);
    }
    expect((await t.call("GET", `/cloud-api/tickets/${ticket.id}/window`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("GET", `/whatsapp/${cloudId}`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("PUT", `/whatsapp/${cloudId}`, { token: b.adminToken, body: cloudBody({ appSecret: "taken-over-secret-123456" }) })).status).toBe(404);
    // B's own Cloud API connection; A's number posted to B's URL (signed with B's secret) creates nothing anywhere
    const mine = await t.call("POST", "/whatsapp", { token: b.adminToken, body: cloudBody({ phoneNumberId: "106540352249999", accessToken: "EAAG-TOKEN-OF-B", appSecret: "app-secret-of-company-b-9876" }) });
    expect(mine.status).toBe(200);
    expect(mine.body.status).toBe("DISCONNECTED");
    const bHook = new URL(mine.body.cloudApi.webhookUrl).pathname.replace(/^\/api/, "");
    await runCloudJobs();
    await consumeQueued();
    const bBefore = (await adminTickets(t, b)).length;
    const aBefore = (await adminTickets(t, a)).length;
    expect((await post(bHook, envelope({ messages: [{ ...INBOUND.text!, id: "wamid.CROSS", from: "5511911112222" }] }), "app-secret-of-company-b-9876")).status).toBe(200);
    expect(inbound.events).toEqual([]);
    // and A's secret on B's URL is refused
    expect((await post(bHook, envelope({ messages: [INBOUND.text!] }, "106540352249999"), APP_SECRET)).status).toBe(403);
    await consumeQueued();
    expect((await adminTickets(t, b)).length).toBe(bBefore);
    expect((await adminTickets(t, a)).length).toBe(aBefore);
  });
});
