import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, deliver } from "../../../testing/inbox-fixtures";
import { runJob } from "../../../app/jobs-consumer";
import { createMemoryInboundQueue } from "../../../platform/queues/sqs-inbound.adapter";
import { createLocalSecretBox } from "../../../platform/secrets/local-secret-box.adapter";
import { signatureFor } from "../../../platform/channels/meta-webhook/webhook-signature";

/**
 * Messenger through the whole API (issue 31 item 2, docs/adr/0090): POST /whatsapp with provider "messenger", the
 * GET answer with its webhook URL and verify token (secrets masked), the signed webhook into the same inbound
 * pipeline as WhatsApp (contact by PSID with the profile's name, ticket), replies out through the Send API under
 * Meta's window (test clock), and company B's URL never reaching company A.
 */
const inbound = createMemoryInboundQueue();
const PAGE = "100200300400";
const PSID = "2468013579";
const TOKEN = "EAAPAGE-TOKEN-A";
const SECRET = "messenger-app-secret-a-9876";
const sends: { url: string; body: Record<string, unknown> }[] = [];
const graphFetch = async (url: string, init?: RequestInit) => {
  if (new Headers(init?.headers).get("authorization") !== `Bearer ${TOKEN}`) return Response.json({ error: { code: 190, message: "Invalid OAuth access token" } }, { status: 401 });
  if (url.includes(`/${PAGE}?fields=`)) return Response.json({ name: "Loja A", id: PAGE });
  if (url.includes(`/${PSID}?fields=`)) return Response.json({ first_name: "Carla", last_name: "Souza", id: PSID });
  if (url.endsWith(`/${PAGE}/messages`)) {
    sends.push({ url, body: JSON.parse(String(init!.body)) });
    return Response.json({ recipient_id: PSID, message_id: `m_out_${sends.length}` });
  }
  return Response.json({ error: { code: 100, message: "Unsupported" } }, { status: 400 });
};

let t: TestApp;
let a: Tenant;
let b: Tenant;
let hookPath: string;
const body = (over: Record<string, unknown> = {}) => ({ name: "Messenger da loja", provider: "messenger", pageId: PAGE, pageAccessToken: TOKEN, appSecret: SECRET, graphApiUrl: "https://graph.test/v23.0", ...over });
const post = (path: string, payload: unknown, secret: string | null) => {
  const raw = JSON.stringify(payload);
  return t.call("POST", path, { rawBody: raw, headers: { "content-type": "application/json", ...(secret ? { "x-hub-signature-256": signatureFor(raw, secret) } : {}) } });
};
const consume = async () => {
  const events = inbound.events.splice(0);
  if (events.length) await deliver(t, ...events);
};
const runSends = async () => {
  for (const p of t.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && (p.job as { name: string }).name === "meta.send")) await runJob(t.container, p.job as JobMessage);
};
const text = (mid: string, txt: string) => ({ object: "page", entry: [{ id: PAGE, time: 1, messaging: [{ sender: { id: PSID }, recipient: { id: PAGE }, timestamp: t.clock.now.getTime(), message: { mid, text: txt } }] }] });

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { inbound, graphFetch, secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "meta-api-")), "key")) } });
  a = await createTenant(t, { plan: { connections: 5 } });
  b = await createTenant(t, { plan: { connections: 5 } });
});

describe("a Messenger connection through the API", () => {
  it("POST /whatsapp provider messenger: CONNECTED from the page check; GET carries webhookUrl and verifyToken, secrets masked", async () => {
    const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: body() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "messenger", status: "CONNECTED", number: "Loja A" });
    const got = await t.call("GET", `/whatsapp/${res.body.id}`, { token: a.adminToken });
    const s = got.body.channelSettings;
    expect(s).toMatchObject({ provider: "messenger", pageId: PAGE });
    expect(s.webhookUrl).toMatch(/\/api\/channels\/meta\/webhook\/[\w-]{32}$/);
    expect(s.verifyToken).toMatch(/^[\w-]{24}$/);
    expect(JSON.stringify(got.body)).not.toContain(TOKEN);
    expect(JSON.stringify(got.body)).not.toContain(SECRET);
    hookPath = new URL(s.webhookUrl).pathname.replace(/^\/api/, "");
    const ok = await t.call("GET", `${hookPath}?hub.mode=subscribe&hub.verify_token=${s.verifyToken}&hub.challenge=777`);
    expect([ok.status, ok.body]).toEqual([200, 777]);
    expect((await t.call("GET", `${hookPath}?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`)).status).toBe(403);
  });

  it("refuses a connection without its secrets or with a malformed page id", async () => {
    for (const over of [{ pageAccessToken: "" }, { appSecret: "" }, { pageId: "abc" }]) {
      const res = await t.call("POST", "/whatsapp", { token: a.adminToken, body: body({ name: `X${JSON.stringify(over)}`, ...over }) });
      expect([res.status, res.body.error]).toEqual([400, "ERR_VALIDATION"]);
    }
  });

  it("a wrong signature stores nothing; a signed message becomes a ticket of the PSID contact named by the profile", async () => {
    const before = (await adminTickets(t, a)).length;
    expect((await post(hookPath, text("m_bad", "oi"), "wrong")).status).toBe(403);
    expect((await post(hookPath, text("m_bad", "oi"), null)).status).toBe(403);
    await consume();
    expect((await adminTickets(t, a)).length).toBe(before);
    expect((await post(hookPath, text("m_in_1", "Vocês entregam hoje?"), SECRET)).status).toBe(200);
    await consume();
    const tickets = await adminTickets(t, a);
    expect(tickets.length).toBe(before + 1);
    const ticket = tickets.find((x) => x.contact.name === "Carla Souza");
    expect(ticket).toBeTruthy();
    const msgs = (await t.call("GET", `/messages/${ticket!.id}`, { token: a.adminToken })).body.messages as { body: string; fromMe: boolean }[];
    expect(msgs.map((m) => m.body)).toEqual(["Vocês entregam hoje?"]);
  });

  it("cross-tenant: company A's webhook URL never creates a ticket in company B", async () => {
    const beforeB = (await adminTickets(t, b)).length;
    await post(hookPath, text("m_in_2", "outra"), SECRET);
    await consume();
    expect((await adminTickets(t, b)).length).toBe(beforeB);
  });

  it("replies: RESPONSE within 24 h, HUMAN_AGENT up to 7 days, then ERR_WINDOW_CLOSED (composer window too)", async () => {
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.name === "Carla Souza")!;
    const start = t.clock.now.getTime();
    const win = await t.call("GET", `/cloud-api/tickets/${ticket.id}/window`, { token: a.adminToken });
    expect(win.body).toMatchObject({ kind: "open" });
    expect((await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "Entregamos sim!" } })).status).toBe(201);
    await runSends();
    expect(sends.at(-1)!.body).toEqual({ recipient: { id: PSID }, messaging_type: "RESPONSE", message: { text: "Entregamos sim!" } });

    t.clock.set(new Date(start + 48 * 3600_000));
    expect((await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "Seu pedido saiu" } })).status).toBe(201);
    await runSends();
    expect(sends.at(-1)!.body).toMatchObject({ messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" });

    t.clock.set(new Date(start + 8 * 24 * 3600_000));
    const late = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "tarde" } });
    expect([late.status, late.body.error]).toEqual([409, "ERR_WINDOW_CLOSED"]);
    expect((await t.call("GET", `/cloud-api/tickets/${ticket.id}/window`, { token: a.adminToken })).body).toMatchObject({ kind: "closed" });
    t.clock.set(new Date(start));
  });
});
