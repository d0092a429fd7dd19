import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import { createTenant, type Tenant } from "@atende/functions/testing/factories";
import { createTestApp, type TestApp } from "@atende/functions/testing/test-app";
import { adminTickets, deliver } from "@atende/functions/testing/inbox-fixtures";
import { runJob } from "@atende/functions/app/jobs-consumer";
import { createMemoryInboundQueue } from "@atende/functions/platform/queues/sqs-inbound.adapter";
import { createLocalSecretBox } from "@atende/functions/platform/secrets/local-secret-box.adapter";
import { createMetaGraphStandIn, hubSignature, type GraphPage, type MetaGraphStandIn } from "./meta-graph-api";

/**
 * Messenger and Instagram played through the Graph stand-in (issue 31, docs/adr/0095): the stand-in is Meta for the
 * API (the Send API, profiles, the attachment URLs, the handshake, signed webhooks), the API is the real one
 * (DynamoDB Local, inbound consumer, jobs). Webhooks the stand-in posts reach the app's HTTP handler; Graph calls the
 * app makes reach the stand-in's.
 */
const SIM = "http://graph-sim.test";
const inbound = createMemoryInboundQueue();
let t: TestApp;
let graph: MetaGraphStandIn;
let a: Tenant;
let b: Tenant;
const pages: Record<string, GraphPage> = {};
const hooks: Record<string, string> = {};
const PSID = "24000000000000777";
const IGSID = "17841400000000777";

const consume = async () => {
  const events = inbound.events.splice(0);
  if (events.length) await deliver(t, ...events);
};
const runSends = async () => {
  for (const p of t.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && (p.job as { name: string }).name === "meta.send")) await runJob(t.container, p.job as JobMessage);
};
const messages = async (tenant: Tenant, ticketId: number) =>
  (await t.call("GET", `/messages/${ticketId}`, { token: tenant.adminToken })).body.messages as { body: string; fromMe: boolean; mediaType: string | null; mediaUrl: string | null; ack: number }[];
const ticketOf = async (tenant: Tenant, name: string) => (await adminTickets(t, tenant)).find((x) => x.contact.name === name);

/** Saves a connection through the API and its callback on the stand-in (Meta's handshake against our URL). */
const connect = async (tenant: Tenant, page: GraphPage) => {
  const idField = page.provider === "instagram" ? "instagramAccountId" : "pageId";
  const made = await t.call("POST", "/whatsapp", {
    token: tenant.adminToken,
    body: { name: `${page.provider} ${page.pageId}`, provider: page.provider, [idField]: page.pageId, pageAccessToken: page.accessToken, appSecret: page.appSecret, graphApiUrl: `${SIM}/simulator/meta/graph/v23.0` },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  expect(made.body).toMatchObject({ status: "CONNECTED", provider: page.provider });
  const view = (await t.call("GET", `/whatsapp/${made.body.id}`, { token: tenant.adminToken })).body.channelSettings as { webhookUrl: string; verifyToken: string };
  expect(await graph.subscribe(page.pageId, view.webhookUrl, view.verifyToken)).toEqual({ ok: true, status: 200 });
  hooks[page.pageId] = view.webhookUrl;
  return made.body.id as number;
};

beforeAll(async () => {
  graph = createMetaGraphStandIn({
    // the stand-in's webhooks and handshakes reach the app's HTTP handler
    post: (url, init) => t.app.request(new URL(url).pathname + new URL(url).search, init, { incoming: { socket: { remoteAddress: "127.0.0.1" } } }),
    now: () => t.clock.now.getTime(),
    publicUrl: () => SIM,
  });
  // the app's Graph calls (Send API, profiles, attachment URLs) reach the stand-in
  const graphFetch = async (url: string, init?: RequestInit) => {
    if (!url.startsWith(`${SIM}/simulator/meta/`)) return Response.json({ error: { code: 1, message: "not the stand-in" } }, { status: 502 });
    return graph.fetch(new Request(url, { method: init?.method, headers: init?.headers, body: init?.body }));
  };
  t = await createTestApp({}, { overrides: { inbound, graphFetch, secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "meta-sim-")), "key")) } });
  a = await createTenant(t, { plan: { connections: 5 } });
  b = await createTenant(t, { plan: { connections: 5 } });
  pages.fbA = graph.addPage({ provider: "messenger", pageId: "100000000000101", name: "Loja A" });
  pages.igA = graph.addPage({ provider: "instagram", pageId: "17841400000000101", name: "Loja A", username: "loja.a" });
  pages.fbB = graph.addPage({ provider: "messenger", pageId: "100000000000202", name: "Loja B" });
  await connect(a, pages.fbA);
  await connect(a, pages.igA);
  await connect(b, pages.fbB);
});

describe("the Graph stand-in", () => {
  it("keeps page tokens only as hashes and lists secrets masked", () => {
    const listed = JSON.stringify(graph.pages());
    expect(listed).not.toContain(pages.fbA!.accessToken);
    expect(listed).not.toContain(pages.fbA!.appSecret);
    expect(graph.pages()[0]).toMatchObject({ accessToken: `••••••••${pages.fbA!.accessToken.slice(-4)}`, appSecret: `••••••••${pages.fbA!.appSecret.slice(-4)}` });
  });

  it("refuses the handshake with a wrong verify token (the callback is not saved)", async () => {
    expect(await graph.subscribe(pages.fbA!.pageId, hooks[pages.fbA!.pageId]!, "not-the-token")).toMatchObject({ ok: false, status: 403 });
  });
});

describe("Messenger and Instagram through the Graph stand-in", () => {
  it("a signed Messenger text becomes a ticket of company A on its Messenger connection, named by the profile; the reply reaches the user", async () => {
    const sent = await graph.userEvent({ pageId: pages.fbA!.pageId, userId: PSID, name: "Carla Souza", kind: "text", text: "Vocês entregam hoje?" });
    expect(sent.status).toBe(200);
    await consume();
    const ticket = await ticketOf(a, "Carla Souza");
    expect(ticket).toBeTruthy();
    const full = (await t.call("GET", `/tickets/${ticket!.id}`, { token: a.adminToken })).body;
    expect(full.whatsapp).toMatchObject({ provider: "messenger" });
    expect(full.contact).toMatchObject({ channel: "messenger", channelUserId: PSID });
    expect((await messages(a, ticket!.id)).map((m) => m.body)).toEqual(["Vocês entregam hoje?"]);

    expect((await t.call("POST", `/messages/${ticket!.id}`, { token: a.adminToken, body: { body: "Entregamos sim!" } })).status).toBe(201);
    await runSends();
    expect(graph.chat(pages.fbA!.pageId, PSID)!.lines.at(-1)).toMatchObject({ from: "page", kind: "text", text: "Entregamos sim!" });
    await consume();
    expect((await messages(a, ticket!.id)).find((m) => m.body === "Entregamos sim!")?.ack).toBeGreaterThanOrEqual(1);
  });

  it("an image in (downloaded from the attachment URL into our storage) and a file out (multipart attachment)", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    await graph.userEvent({ pageId: pages.fbA!.pageId, userId: PSID, kind: "image", fileBase64: png.toString("base64"), mimeType: "image/png" });
    await consume();
    const ticket = (await ticketOf(a, "Carla Souza"))!;
    const image = (await messages(a, ticket.id)).find((m) => m.mediaType === "image");
    expect(image?.mediaUrl).toBeTruthy();

    const form = new FormData();
    form.set("medias", new Blob([png], { type: "image/png" }), "catalogo.png");
    form.set("body", "");
    const up = await t.app.request(`/api/messages/${ticket.id}`, { method: "POST", headers: { authorization: `Bearer ${a.adminToken}` }, body: form }, { incoming: { socket: { remoteAddress: "127.0.0.1" } } });
    expect(up.status, await up.clone().text()).toBe(201);
    await runSends();
    expect(graph.chat(pages.fbA!.pageId, PSID)!.lines.at(-1)).toMatchObject({ from: "page", kind: "image", text: "catalogo.png" });
  });

  it("Instagram: text, story reply, story mention and a reaction in, on the Instagram connection", async () => {
    await graph.userEvent({ pageId: pages.igA!.pageId, userId: IGSID, name: "Bia Rocha", kind: "text", text: "oi!" });
    await graph.userEvent({ pageId: pages.igA!.pageId, userId: IGSID, kind: "story_reply", text: "que lindo" });
    await graph.userEvent({ pageId: pages.igA!.pageId, userId: IGSID, kind: "story_mention" });
    await consume();
    const ticket = (await ticketOf(a, "Bia Rocha"))!;
    expect((await t.call("GET", `/tickets/${ticket.id}`, { token: a.adminToken })).body.whatsapp).toMatchObject({ provider: "instagram" });
    const msgs = await messages(a, ticket.id);
    expect(msgs[0]!.body).toBe("oi!");
    // the story reply carries the story's link and the text; the mention is the story's media
    expect(msgs[1]!.body).toMatch(/\/simulator\/meta\/media\/\w+\nque lindo$/);
    expect(msgs[2]).toMatchObject({ mediaType: "image" });

    expect((await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "Obrigada!" } })).status).toBe(201);
    await runSends();
    await consume();
    const reaction = await graph.userEvent({ pageId: pages.igA!.pageId, userId: IGSID, kind: "reaction", emoji: "❤️" });
    expect(reaction.status).toBe(200);
    const events = inbound.events.slice();
    await consume();
    expect(events).toEqual([expect.objectContaining({ type: "message", message: expect.objectContaining({ type: "reactionMessage", reaction: { targetId: expect.stringMatching(/^m_out_/), emoji: "❤️" } }) })]);
  });

  it("a wrong signature is refused (403) and nothing is stored", async () => {
    const before = (await adminTickets(t, a)).length;
    const raw = JSON.stringify({ object: "page", entry: [{ id: pages.fbA!.pageId, time: 1, messaging: [{ sender: { id: "24000000000000999" }, recipient: { id: pages.fbA!.pageId }, timestamp: t.clock.now.getTime(), message: { mid: "m_forged", text: "forjada" } }] }] });
    const path = new URL(hooks[pages.fbA!.pageId]!).pathname.replace(/^\/api/, "");
    for (const sig of [hubSignature(raw, "not-the-app-secret"), hubSignature(raw, pages.fbB!.appSecret), null]) {
      const res = await t.call("POST", path, { rawBody: raw, headers: { "content-type": "application/json", ...(sig ? { "x-hub-signature-256": sig } : {}) } });
      expect(res.status).toBe(403);
    }
    expect(inbound.events).toEqual([]);
    await consume();
    expect((await adminTickets(t, a)).length).toBe(before);
  });

  it("cross-tenant: company B's page posting to company A's URL creates nothing in A, and B's own message lands in B only", async () => {
    const beforeA = (await adminTickets(t, a)).length;
    // B's page events, signed with B's secret, sent to A's URL: refused
    const raw = JSON.stringify({ object: "page", entry: [{ id: pages.fbB!.pageId, time: 1, messaging: [{ sender: { id: PSID }, recipient: { id: pages.fbB!.pageId }, timestamp: t.clock.now.getTime(), message: { mid: "m_b_to_a", text: "de B" } }] }] });
    const res = await t.call("POST", new URL(hooks[pages.fbA!.pageId]!).pathname.replace(/^\/api/, ""), { rawBody: raw, headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(raw, pages.fbB!.appSecret) } });
    expect(res.status).toBe(403);
    // the same PSID writes to B's page: a ticket in B, none new in A
    await graph.userEvent({ pageId: pages.fbB!.pageId, userId: PSID, name: "Carla Souza", kind: "text", text: "oi, loja B" });
    await consume();
    expect((await adminTickets(t, a)).length).toBe(beforeA);
    const inB = await ticketOf(b, "Carla Souza");
    expect((await messages(b, inB!.id)).map((m) => m.body)).toEqual(["oi, loja B"]);
  });

  it("the window: RESPONSE within 24 h, HUMAN_AGENT up to 7 days (the stand-in checks it, like Meta), then ERR_WINDOW_CLOSED", async () => {
    const ticket = (await ticketOf(a, "Carla Souza"))!;
    await graph.userEvent({ pageId: pages.fbA!.pageId, userId: PSID, kind: "text", text: "ainda aí?" });
    await consume();
    const start = t.clock.now.getTime();
    try {
      t.clock.set(new Date(start + 30 * 3600_000));
      expect((await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "Sim, seu pedido saiu" } })).status).toBe(201);
      await runSends();
      expect(graph.chat(pages.fbA!.pageId, PSID)!.lines.at(-1)).toMatchObject({ from: "page", text: "Sim, seu pedido saiu", tag: "HUMAN_AGENT" });
      t.clock.set(new Date(start + 8 * 24 * 3600_000));
      const late = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "tarde demais" } });
      expect([late.status, late.body.error]).toEqual([409, "ERR_WINDOW_CLOSED"]);
      expect((await t.call("GET", `/cloud-api/tickets/${ticket.id}/window`, { token: a.adminToken })).body).toMatchObject({ kind: "closed" });
      expect(graph.chat(pages.fbA!.pageId, PSID)!.lines.some((l) => l.text === "tarde demais")).toBe(false);
    } finally {
      t.clock.set(new Date(start));
    }
  });
});
