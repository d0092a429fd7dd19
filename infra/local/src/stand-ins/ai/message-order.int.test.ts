import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMessageSequencer } from "@atende/shared/domain/messages/message-order";
import { runJob } from "@atende/functions/app/jobs-consumer";
import { createTenant, type Tenant } from "@atende/functions/testing/factories";
import { createTestApp, type TestApp } from "@atende/functions/testing/test-app";
import { customerMessage, deliver } from "@atende/functions/testing/inbox-fixtures";
import { recordingGraphApi } from "@atende/functions/testing/graph-api-stand-in";
import { createMemoryInboundQueue } from "@atende/functions/platform/queues/sqs-inbound.adapter";
import { createLocalSecretBox } from "@atende/functions/platform/secrets/local-secret-box.adapter";
import { signatureFor } from "@atende/functions/platform/channels/meta-webhook/webhook-signature";
import { envelope } from "@atende/functions/platform/channels/cloud-api/meta-webhook.fixtures";
import { createAiSimulator, type AiSimulator } from "./ai-simulator.http";
import { BOT_TURN_JOB } from "@atende/functions/features/bots/bot-runner.service";

/**
 * Issue 27 finding 5: a customer's messages of one second come back, are paged and are answered in the order they
 * were written (docs/adr/0066). WhatsApp's times are whole seconds; before, ties were broken by the message id
 * (random), so `1..8` came back as e.g. `2, 1, 4, 3, ...`. The ids here are chosen in the reverse order of the
 * messages, so ordering by id fails every time.
 */
let t: TestApp;
let sim: AiSimulator;
let server: Server;
let simUrl = "";
let n = 0;
const inbound = createMemoryInboundQueue();
const graph = recordingGraphApi({
  token: "EAAG-TOKEN-ORDER",
  phone: { id: "106540352240027", displayPhoneNumber: "+55 11 4000-0027", verifiedName: "Loja Ordem" },
  templates: () => [],
  messageIdPrefix: "OUT",
});
const APP_SECRET = "app-secret-of-the-order-test";

beforeAll(async () => {
  sim = createAiSimulator();
  server = createServer(getRequestListener((req) => sim.fetch(req)));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  simUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t = await createTestApp(
    { INBOX_DIRECTORY_TTL_MS: "0", BOT_TIMEOUT_MS: "2000" },
    { overrides: { inbound, graphFetch: graph.fetch, secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "order-")), "key")) } },
  );
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** Ids that sort in the reverse order of the messages (`3AZ…` > `3AY…`). */
const reversedIds = (count: number, tag: string) => Array.from({ length: count }, (_, i) => `3A${String.fromCharCode(90 - i)}${tag}${String(n).padStart(4, "0")}`);
const bodies = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

type View = { id: string; body: string; fromMe: boolean; createdAt: string; seq?: number };
const conversation = async (tenant: Tenant, ticketId: number, pageNumber = 1) => {
  const res = await t.call("GET", `/messages/${ticketId}?pageNumber=${pageNumber}`, { token: tenant.adminToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { messages: View[]; hasMore: boolean };
};
const ticketOf = async (tenant: Tenant, number: string) => {
  const res = await t.call("GET", "/tickets?showAll=true", { token: tenant.adminToken });
  return (res.body.tickets as { id: number; contact: { number: string } }[]).find((x) => x.contact.number === number)!;
};

/** Runs the queued bot turns (the jobs consumer would), including the ones they queue. */
const runBots = async () => {
  for (let round = 0; round < 40; round++) {
    const batch = t.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && p.job.name === BOT_TURN_JOB);
    if (!batch.length) return;
    await Promise.all(batch.map((p) => runJob(t.container, p.job)));
  }
};

/** `count` messages of one customer, all in one second, with the session host's increasing `seq`, in one queue batch. */
const burst = (tenant: Tenant, number: string, texts: string[], tag: string) => {
  const second = Math.floor(t.clock.now.getTime() / 1000);
  const ids = reversedIds(texts.length, tag);
  const seq = createMessageSequencer();
  return texts.map((body, i) => customerMessage(tenant, { number, id: ids[i], body, pushName: "Carla Dias", extra: { timestamp: second, seq: seq.next() } }));
};

describe("a customer's messages of one second (QR connection: the session host's seq)", () => {
  it("come back in the order written, and the AI prompt answers them in that order", async () => {
    const a = await createTenant(t);
    const made = await t.call("POST", "/prompt", {
      token: a.adminToken,
      body: { name: "Assistente", prompt: "Você é o assistente.", apiKey: "sk-proj-order-int-000000000000000000000027", queueId: a.queues[1]!.id, baseUrl: `${simUrl}/simulator/ai/v1`, maxMessages: 20 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((await t.call("PUT", `/queue/${a.queues[1]!.id}`, { token: a.adminToken, body: { promptId: made.body.id } })).status).toBe(200);
    const number = `55119${String(71000000 + ++n)}`;
    const jid = `${number}@s.whatsapp.net`;
    const replies = () => t.commands.sent.flatMap((c) => (c.type === "send" && c.chatJid === jid ? [c.body ?? ""] : []));
    for (const body of ["oi", "2"]) {
      t.clock.advance(1000);
      await deliver(t, customerMessage(a, { number, body, extra: { timestamp: Math.floor(t.clock.now.getTime() / 1000) } }));
      await runBots();
    }
    t.clock.advance(1000);
    const texts = bodies(8, "mensagem");
    await deliver(t, ...burst(a, number, texts, "Q"));
    t.clock.advance(1000);
    const before = replies().length;
    await runBots();

    const ticket = await ticketOf(a, number);
    const page = await conversation(a, ticket.id);
    expect(page.messages.filter((m) => !m.fromMe && texts.includes(m.body)).map((m) => m.body)).toEqual(texts);
    // the automatic answers follow the same order
    expect(replies().slice(before)).toEqual(texts.map((x) => `Você disse: "${x}"`));
    // and the last turn's history lists the customer's earlier messages of that second in their order
    const last = sim.requests.filter((r) => r.endpoint === "chat").find((r) => r.answer === `Você disse: "${texts[7]}"`)!;
    expect(last.messages!.filter((m) => m.role === "user" && texts.includes(m.content)).map((m) => m.content)).toEqual(texts);
  });

  it("pages by that order: a page boundary inside the second splits it where the order says", async () => {
    const a = await createTenant(t);
    const number = `55119${String(71000000 + ++n)}`;
    t.clock.advance(5_000);
    const texts = bodies(25, "parte");
    await deliver(t, ...burst(a, number, texts, "P"));
    const ticket = await ticketOf(a, number);
    const first = await conversation(a, ticket.id, 1);
    const second = await conversation(a, ticket.id, 2);
    expect(first.hasMore).toBe(true);
    const customer = (p: { messages: View[] }) => p.messages.filter((m) => !m.fromMe && m.body.startsWith("parte")).map((m) => m.body);
    // page 1 is the newest 20 messages (oldest first within the page; the bot's menu among them), page 2 the ones before
    expect(customer(second).length).toBeGreaterThan(0);
    expect(customer(first).length).toBeGreaterThan(customer(second).length);
    expect([...customer(second), ...customer(first)]).toEqual(texts);
    expect(first.messages.every((m) => m.fromMe || typeof m.seq === "number")).toBe(true);
  });
});

describe("a customer's messages of one second (Cloud API: one webhook's payload order)", () => {
  it("come back in the payload's order", async () => {
    const a = await createTenant(t, { plan: { connections: 5 } });
    const made = await t.call("POST", "/whatsapp", {
      token: a.adminToken,
      body: {
        name: "Oficial",
        provider: "cloudapi",
        phoneNumberId: "106540352240027",
        wabaId: "102290129340027",
        accessToken: "EAAG-TOKEN-ORDER",
        appSecret: APP_SECRET,
        graphApiUrl: "https://graph.test/v23.0",
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const hookPath = new URL(made.body.cloudApi.webhookUrl).pathname.replace(/^\/api/, "");
    const second = String(Math.floor(t.clock.now.getTime() / 1000));
    const texts = bodies(8, "webhook");
    // wamids in the reverse order of the messages, every one of the same second, as Meta batches them
    const ids = texts.map((_, i) => `wamid.ORDER${String.fromCharCode(90 - i)}${n}`);
    const payload = envelope({ messages: texts.map((body, i) => ({ from: "16505550027", id: ids[i]!, timestamp: second, type: "text", text: { body } })) }, "106540352240027");
    const raw = JSON.stringify(payload);
    const res = await t.call("POST", hookPath, { rawBody: raw, headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(raw, APP_SECRET) } });
    expect(res.status).toBe(200);
    const queued = inbound.events.splice(0);
    expect(queued).toHaveLength(8);
    await deliver(t, ...queued);
    const ticket = await ticketOf(a, "16505550027");
    const page = await conversation(a, ticket.id);
    expect(page.messages.map((m) => m.body)).toEqual(texts);
  });
});
