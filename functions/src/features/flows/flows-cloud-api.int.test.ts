import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import type { FlowInput } from "@atende/shared/domain/flows/flow";
import { runJob } from "../../app/jobs-consumer";
import { createTenant, type Tenant } from "../../testing/factories";
import { recordingGraphApi } from "../../testing/graph-api-stand-in";
import { deliver } from "../../testing/inbox-fixtures";
import { pngFile } from "../../testing/spec-client";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { createMemoryInboundQueue } from "../../platform/queues/sqs-inbound.adapter";
import { createLocalSecretBox } from "../../platform/secrets/local-secret-box.adapter";
import { signatureFor } from "../../platform/channels/meta-webhook/webhook-signature";
import type { MetaMessage } from "../../platform/channels/cloud-api/webhook.mapper";
import { BOT_TURN_JOB } from "../bots/bot-runner.service";

/**
 * Issue 30 on a Cloud API connection, through Meta's webhook (signed), the inbound consumer, the bot runner's jobs and
 * the Graph API stand-in: a menu of up to 3 options goes out as reply buttons and of up to 10 as a list; the pressed
 * button / row arrives with its id (its title is what the conversation shows) and takes that option's edge, even when
 * two options' titles are the same once cut to Meta's title length; a `media` node uploads and sends its file.
 */
const PHONE_ID = "106540352240001";
const APP_SECRET = "app-secret-of-the-flows-test";
const WABA_ID = "102290129340001";
const inbound = createMemoryInboundQueue();
const graph = recordingGraphApi({
  token: "EAAG-TOKEN-FLOWS",
  phone: { id: PHONE_ID, displayPhoneNumber: "+55 11 4000-0009", verifiedName: "Loja Fluxos" },
  templates: () => [],
  messageIdPrefix: "FLOW",
  answer: ({ url, method }) => (method === "POST" && url.endsWith(`/${PHONE_ID}/media`) ? Response.json({ id: "MEDIA-ID-1" }) : undefined),
});

let t: TestApp;
let a: Tenant;
let hookPath: string;
let n = 0;

/** The jobs queue runs a batch side by side, in no order: `newestFirst` runs each round's jobs last-queued first. */
let newestFirst = false;
const runJobs = async () => {
  for (let round = 0; round < 20; round++) {
    const batch = t.jobs.pending.filter((p) => p.job.type === "feature" && [BOT_TURN_JOB, "cloudapi.send"].includes((p.job as { name: string }).name));
    if (newestFirst) batch.reverse();
    if (!batch.length) return;
    t.jobs.pending.splice(0, t.jobs.pending.length, ...t.jobs.pending.filter((p) => !batch.includes(p)));
    for (const p of batch) await runJob(t.container, p.job as JobMessage);
    // command results (accepted) come back through the inbound queue
    const events = inbound.events.splice(0);
    if (events.length) await deliver(t, ...events);
  }
};

/** What the customer `from` sends (a text or a pressed button/row), through the signed webhook. */
const webhook = async (from: string, m: Omit<MetaMessage, "from" | "id" | "timestamp">) => {
  t.clock.advance(2000);
  const message: MetaMessage = { from, id: `wamid.IN${++n}`, timestamp: String(Math.floor(t.clock.now.getTime() / 1000)), ...m };
  const payload = {
    object: "whatsapp_business_account",
    entry: [{ id: WABA_ID, changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: "551140000009", phone_number_id: PHONE_ID }, contacts: [{ profile: { name: "Bia" }, wa_id: from }], messages: [message] } }] }],
  };
  const raw = JSON.stringify(payload);
  const res = await t.call("POST", hookPath, { rawBody: raw, headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(raw, APP_SECRET) } });
  expect(res.status).toBe(200);
  const before = graph.calls.length;
  await deliver(t, ...inbound.events.splice(0));
  await runJobs();
  return graph.calls.slice(before).filter((c) => c.method === "POST" && c.url.endsWith(`/${PHONE_ID}/messages`) && c.body?.to === from && c.body?.type !== undefined).map((c) => c.body!);
};
const text = (body: string) => ({ type: "text", text: { body } });
const button = (id: string, title: string) => ({ type: "interactive", interactive: { type: "button_reply", button_reply: { id, title } } });
const row = (id: string, title: string) => ({ type: "interactive", interactive: { type: "list_reply", list_reply: { id, title } } });

const flow = (fileListId: number): FlowInput => ({
  name: "Atendimento",
  nodes: [
    { id: "s", type: "start", data: {} },
    { id: "cat", type: "media", data: { fileListId, caption: "Olá {{contact.name}}, nosso catálogo" } },
    {
      id: "m3",
      type: "menu",
      // Meta cuts a reply button's title at 20 characters: the first two are the same title
      data: { text: "Com quem quer falar?", options: [{ id: "vendas", label: "Falar com o setor de vendas" }, { id: "suporte", label: "Falar com o setor de suporte" }, { id: "boletos", label: "Boletos" }] },
    },
    {
      id: "m10",
      type: "menu",
      // a list row's title is cut at 24: "Segunda via do boleto d" for all four
      data: { text: "Qual boleto?", options: ["janeiro", "fevereiro", "março", "abril"].map((m, i) => ({ id: `b${i + 1}`, label: `Segunda via do boleto de ${m}` })) },
    },
    { id: "eV", type: "end", data: { text: "Vendas!", closeTicket: false } },
    { id: "eS", type: "end", data: { text: "Suporte!", closeTicket: false } },
    { id: "eB3", type: "end", data: { text: "Boleto de março", closeTicket: false } },
    { id: "eB", type: "end", data: { text: "Outro boleto", closeTicket: false } },
  ],
  edges: [
    { source: "s", target: "cat" },
    { source: "cat", target: "m3" },
    { source: "m3", target: "eV", sourceHandle: "vendas" },
    { source: "m3", target: "eS", sourceHandle: "suporte" },
    { source: "m3", target: "m10", sourceHandle: "boletos" },
    { source: "m10", target: "eB", sourceHandle: "b1" },
    { source: "m10", target: "eB", sourceHandle: "b2" },
    { source: "m10", target: "eB3", sourceHandle: "b3" },
    { source: "m10", target: "eB", sourceHandle: "b4" },
  ],
});

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" }, { overrides: { inbound, graphFetch: graph.fetch, secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "flows-cloud-")), "key")) } });
  a = await createTenant(t, { plan: { connections: 5 } });
  const made = await t.call("POST", "/whatsapp", {
    token: a.adminToken,
    body: { name: "Oficial", provider: "cloudapi", phoneNumberId: PHONE_ID, wabaId: WABA_ID, accessToken: "EAAG-TOKEN-FLOWS", appSecret: APP_SECRET, graphApiUrl: "https://graph.test/v23.0" },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  hookPath = new URL(made.body.cloudApi.webhookUrl).pathname.replace(/^\/api/, "");
  // a file list with one picture, for the media node
  const list = await t.call("POST", "/files", { token: a.adminToken, body: { name: "Catálogo", message: "Segue", options: [{ name: "Verão" }] } });
  const form = new FormData();
  form.append("files", pngFile("verao.png"));
  form.append("id", String(list.body.options[0].id));
  expect((await t.app.request(`/api/files/uploadList/${list.body.id}`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.adminToken}` } })).status).toBe(200);
  const f = await t.call("POST", "/flows", { token: a.adminToken, body: flow(list.body.id) });
  expect(f.status, JSON.stringify(f.body)).toBe(201);
  expect((await t.call("POST", `/flows/${f.body.id}/publish`, { token: a.adminToken })).status).toBe(200);
  const wa = (await t.call("GET", `/whatsapp/${made.body.id}`, { token: a.adminToken })).body;
  const put = await t.call("PUT", `/whatsapp/${made.body.id}`, { token: a.adminToken, body: { ...wa, accessToken: wa.cloudApi.accessToken, appSecret: "", phoneNumberId: PHONE_ID, wabaId: WABA_ID, graphApiUrl: "https://graph.test/v23.0", flowId: f.body.id } });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  expect(put.body.flowId).toBe(f.body.id);
});

describe("a flow on a Cloud API connection", () => {
  it("sends the media node's file with its caption, then 3 options as reply buttons; the pressed button's id takes its edge", async () => {
    const out = await webhook("5511911110001", text("oi"));
    expect(out[0]).toMatchObject({ type: "image", image: { id: "MEDIA-ID-1", caption: "Olá Bia, nosso catálogo" } });
    expect(graph.calls.some((c) => c.url.endsWith(`/${PHONE_ID}/media`))).toBe(true);
    expect(out[1]).toMatchObject({
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: "Com quem quer falar?" },
        action: {
          buttons: [
            { type: "reply", reply: { id: "vendas", title: "Falar com o setor de" } },
            { type: "reply", reply: { id: "suporte", title: "Falar com o setor de" } },
            { type: "reply", reply: { id: "boletos", title: "Boletos" } },
          ],
        },
      },
    });
    // the second button: same title as the first, told apart by its id
    const done = await webhook("5511911110001", button("suporte", "Falar com o setor de"));
    expect(done).toEqual([expect.objectContaining({ type: "text", text: expect.objectContaining({ body: "Suporte!" }) })]);
  });

  it("a step's messages reach the customer in order even when the queue runs their jobs newest first", async () => {
    newestFirst = true;
    try {
      const out = await webhook("5511911110003", text("oi"));
      expect(out.map((m) => m.type)).toEqual(["image", "interactive"]);
      // each was sent once: the second waited for the first, then went alone
      expect(t.jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === "cloudapi.send")).toEqual([]);
    } finally {
      newestFirst = false;
    }
  });

  it("sends 4 options as a list; the pressed row's id takes its edge; the conversation shows the row's title", async () => {
    await webhook("5511911110002", text("oi"));
    const list = await webhook("5511911110002", button("boletos", "Boletos"));
    expect(list[0]).toMatchObject({ type: "interactive", interactive: { type: "list", body: { text: "Qual boleto?" } } });
    const rows = (list[0] as { interactive: { action: { sections: { rows: { id: string; title: string }[] }[] } } }).interactive.action.sections[0]!.rows;
    expect(rows.map((r) => r.id)).toEqual(["b1", "b2", "b3", "b4"]);
    expect(new Set(rows.map((r) => r.title)).size).toBe(1);
    const done = await webhook("5511911110002", row("b3", rows[2]!.title));
    expect(done).toEqual([expect.objectContaining({ type: "text", text: expect.objectContaining({ body: "Boleto de março" }) })]);
    const tickets = (await t.call("GET", "/tickets?showAll=true", { token: a.adminToken })).body.tickets as { id: number; contact: { number: string } }[];
    const ticket = tickets.find((x) => x.contact.number === "5511911110002")!;
    const msgs = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { body: string; fromMe: boolean }[];
    expect(msgs.filter((m) => !m.fromMe).map((m) => m.body)).toEqual(["oi", "Boletos", rows[2]!.title]);
  });
});
