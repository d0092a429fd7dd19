import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runJob } from "@atende/functions/app/jobs-consumer";
import { createTenant, type Tenant } from "@atende/functions/testing/factories";
import { createTestApp, type TestApp } from "@atende/functions/testing/test-app";
import { customerMessage, deliver } from "@atende/functions/testing/inbox-fixtures";
import { isSealed } from "@atende/functions/platform/secrets/secret-box.port";
import { COPILOT_TRANSCRIBE_JOB, COPILOT_TRANSFER_SUMMARY_JOB } from "@atende/functions/features/copilot/copilot.service";
import { createCopilotSettingsRepository } from "@atende/functions/features/copilot/copilot-settings.repository";
import { createAiSimulator, type AiSimulator } from "./ai-simulator.http";

/**
 * The attendants' copilot (issue 33) through the real HTTP API over DynamoDB Local, with the AI stand-in answering
 * over real HTTP: what the provider got (the key, the history), what is never sent (off), visibility, the cap,
 * provider failures, transcripts and the summary on a transfer.
 */
let t: TestApp;
let sim: AiSimulator;
let server: Server;
let simUrl = "";
let n = 0;
const API_KEY = "sk-proj-copilot-int-000000000000000000004321";

beforeAll(async () => {
  sim = createAiSimulator();
  server = createServer(getRequestListener((req) => sim.fetch(req)));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  simUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", COPILOT_TIMEOUT_MS: "3000", COPILOT_TRANSCRIPTION_MAX_BYTES: "40" });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  sim.requests.splice(0);
});

const features = { summary: true, suggestions: true, rewrite: true, transcription: true };
const enable = async (tenant: Tenant, over: Record<string, unknown> = {}) => {
  const res = await t.call("PUT", "/copilot/settings", { token: tenant.adminToken, body: { enabled: true, baseUrl: `${simUrl}/simulator/ai/v1`, apiKey: API_KEY, model: "gpt-test", features, ...over } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** A customer who wrote `lines`; their ticket (in `queueIndex`'s queue when given). */
const conversation = async (tenant: Tenant, lines: string[], queueIndex?: number) => {
  const number = `55119${String(60000000 + ++n)}`;
  for (const body of lines) {
    t.clock.advance(1000);
    await deliver(t, customerMessage(tenant, { number, body, pushName: "Carla Dias", extra: { timestamp: Math.floor(t.clock.now.getTime() / 1000) } }));
  }
  const list = await t.call("GET", "/tickets?showAll=true", { token: tenant.adminToken });
  const ticket = (list.body.tickets as { id: number; contact: { number: string } }[]).find((x) => x.contact.number === number)!;
  if (queueIndex !== undefined) {
    const moved = await t.call("PUT", `/tickets/${ticket.id}`, { token: tenant.adminToken, body: { queueId: tenant.queues[queueIndex]!.id } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  }
  return { ticket, number };
};
const chats = () => sim.requests.filter((r) => r.endpoint === "chat");

describe("copilot settings", () => {
  it("stores the key sealed, answers it masked, and is for admins only", async () => {
    const a = await createTenant(t);
    const before = await t.call("GET", "/copilot/settings", { token: a.adminToken });
    expect(before.body).toMatchObject({ enabled: false, apiKey: "", features: { summary: false, suggestions: false, rewrite: false, transcription: false } });
    const saved = await enable(a, { monthlyTokenCap: 5000, summaryOnTransfer: true });
    expect(saved.apiKey).toBe(`••••••••${API_KEY.slice(-4)}`);
    expect(JSON.stringify(saved)).not.toContain(API_KEY);
    const stored = await createCopilotSettingsRepository(t.container.db).get(a.company.id);
    expect(isSealed(stored.apiKey)).toBe(true);
    expect(await t.container.secrets.open(stored.apiKey)).toBe(API_KEY);
    // the masked key sent back keeps the stored one
    const again = await t.call("PUT", "/copilot/settings", { token: a.adminToken, body: { ...saved, features } });
    expect(again.body.apiKey).toBe(saved.apiKey);
    expect((await t.call("GET", "/copilot/settings", { token: a.userToken })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await t.call("PUT", "/copilot/settings", { token: a.userToken, body: { enabled: false } })).status).toBe(403);
    expect((await t.call("GET", "/copilot/features", { token: a.userToken })).body).toEqual(features);
    // the provider's address goes through the outbound guard (a cloud metadata address is always refused)
    for (const [method, path] of [["PUT", "/copilot/settings"], ["POST", "/copilot/settings/test"]] as const) {
      const refused = await t.call(method, path, { token: a.adminToken, body: { enabled: true, baseUrl: "http://169.254.169.254/v1" } });
      expect(refused.body, path).toEqual({ error: "ERR_URL_NOT_ALLOWED" });
    }
    expect(sim.requests).toEqual([]);
  });

  it("Testar calls the provider with the stored key, and reports its status when it fails", async () => {
    const a = await createTenant(t);
    await enable(a);
    const ok = await t.call("POST", "/copilot/settings/test", { token: a.adminToken, body: {} });
    expect(ok.body).toEqual({ ok: true, status: 200, model: "gpt-test" });
    expect(chats().at(-1)?.keyTail).toBe(API_KEY.slice(-4));
    const bad = await t.call("POST", "/copilot/settings/test", { token: a.adminToken, body: { model: "simulador-erro" } });
    expect(bad.body).toEqual({ ok: false, status: 500, model: "simulador-erro" });
  });
});

describe("copilot calls", () => {
  it("summary: the provider gets the key and the conversation, with the notes; the call is audited without text", async () => {
    const a = await createTenant(t);
    await enable(a);
    const { ticket } = await conversation(a, ["oi, comprei uma geladeira", "ela chegou com a porta amassada", "quero trocar"]);
    await t.call("POST", "/ticket-notes", { token: a.adminToken, body: { note: "cliente VIP", ticketId: ticket.id } });
    const res = await t.call("POST", `/tickets/${ticket.id}/copilot/summary`, { token: a.adminToken, body: { language: "pt" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary).toContain('a última: "quero trocar"');
    const got = chats().at(-1)!;
    expect(got.keyTail).toBe(API_KEY.slice(-4));
    expect(got.model).toBe("gpt-test");
    const sent = got.messages!.map((m) => m.content).join("\n");
    expect(sent).toContain("ela chegou com a porta amassada");
    expect(sent).toContain("cliente VIP");
    const audit = await t.call("GET", "/audit-logs?action=copilot", { token: a.adminToken });
    const entry = (audit.body.logs as { record: { kind: string; id: string }; changes: unknown }[]).find((l) => l.record.kind === "ticket" && l.record.id === String(ticket.id));
    expect(entry?.changes).toEqual({ feature: { from: null, to: "summary" } });
    expect(JSON.stringify(audit.body)).not.toContain("geladeira");
  });

  it("suggestions: up to 3, with the quick messages and the queue's AI prompt as knowledge", async () => {
    const a = await createTenant(t);
    await enable(a);
    await t.call("POST", "/quick-messages", { token: a.adminToken, body: { shortcode: "prazo", message: "A troca leva até 7 dias úteis.", geral: true } });
    const { ticket } = await conversation(a, ["qual o prazo da troca?"]);
    const res = await t.call("POST", `/tickets/${ticket.id}/copilot/suggestions`, { token: a.adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.suggestions).toHaveLength(3);
    expect(res.body.suggestions[0]).toContain("qual o prazo da troca?");
    expect(chats().at(-1)!.messages![0]!.content).toContain("A troca leva até 7 dias úteis.");
  });

  it("rewrite answers the text in the asked style", async () => {
    const a = await createTenant(t);
    await enable(a);
    const res = await t.call("POST", "/copilot/rewrite", { token: a.userToken, body: { text: "seu pedido chega amanha", style: "formal" } });
    expect(res.body).toEqual({ text: "Prezado(a) cliente, Seu pedido chega amanha." });
    expect((await t.call("POST", "/copilot/rewrite", { token: a.userToken, body: { text: "", style: "formal" } })).status).toBe(400);
  });

  it("off, or the feature off: ERR_COPILOT_DISABLED and nothing reaches the provider", async () => {
    const a = await createTenant(t);
    const { ticket } = await conversation(a, ["oi"]);
    expect((await t.call("POST", `/tickets/${ticket.id}/copilot/summary`, { token: a.adminToken })).body).toEqual({ error: "ERR_COPILOT_DISABLED" });
    await enable(a, { enabled: false });
    expect((await t.call("POST", `/tickets/${ticket.id}/copilot/summary`, { token: a.adminToken })).status).toBe(409);
    await enable(a, { features: { ...features, suggestions: false, rewrite: false } });
    expect((await t.call("POST", `/tickets/${ticket.id}/copilot/suggestions`, { token: a.adminToken })).body).toEqual({ error: "ERR_COPILOT_DISABLED" });
    expect((await t.call("POST", "/copilot/rewrite", { token: a.adminToken, body: { text: "oi", style: "fix" } })).body).toEqual({ error: "ERR_COPILOT_DISABLED" });
    expect(sim.requests).toEqual([]);
  });

  it("cross-tenant: B asks nothing about A's tickets, and B's settings are its own", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t);
    await enable(a);
    await enable(b, { apiKey: "sk-proj-copilot-int-b000000000000000000009999", monthlyTokenCap: 77 });
    const { ticket } = await conversation(a, ["assunto de A"]);
    for (const feature of ["summary", "suggestions"]) {
      expect((await t.call("POST", `/tickets/${ticket.id}/copilot/${feature}`, { token: b.adminToken })).body).toEqual({ error: "ERR_NO_TICKET_FOUND" });
    }
    expect(sim.requests).toEqual([]);
    const aSettings = (await t.call("GET", "/copilot/settings", { token: a.adminToken })).body;
    expect(aSettings).toMatchObject({ apiKey: `••••••••${API_KEY.slice(-4)}`, monthlyTokenCap: 0 });
    // B's rewrite runs on B's key
    await t.call("POST", "/copilot/rewrite", { token: b.userToken, body: { text: "oi", style: "fix" } });
    expect(chats().at(-1)?.keyTail).toBe("9999");
  });

  it("an attendant asks only about tickets they can see", async () => {
    const a = await createTenant(t);
    await enable(a);
    const hidden = await conversation(a, ["segredo do outro setor"], 1);
    const res = await t.call("POST", `/tickets/${hidden.ticket.id}/copilot/summary`, { token: a.userToken });
    expect(res.body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect(sim.requests).toEqual([]);
    const seen = await conversation(a, ["pergunta de vendas"], 0);
    expect((await t.call("POST", `/tickets/${seen.ticket.id}/copilot/summary`, { token: a.userToken })).status).toBe(200);
  });

  it("the monthly cap on the usage records answers ERR_AI_QUOTA, without a call", async () => {
    const a = await createTenant(t);
    await enable(a, { monthlyTokenCap: 60 });
    const { ticket } = await conversation(a, ["uma mensagem longa o bastante para gastar algumas dezenas de tokens do limite mensal"]);
    expect((await t.call("POST", `/tickets/${ticket.id}/copilot/summary`, { token: a.adminToken })).status).toBe(200);
    const settings = await t.call("GET", "/copilot/settings", { token: a.adminToken });
    expect(settings.body.tokensThisMonth).toBeGreaterThanOrEqual(60);
    const calls = sim.requests.length;
    const over = await t.call("POST", `/tickets/${ticket.id}/copilot/summary`, { token: a.adminToken });
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("ERR_AI_QUOTA");
    expect(sim.requests.length).toBe(calls);
  });

  it("a provider error or timeout answers ERR_COPILOT_PROVIDER with its status, never a 500", async () => {
    const a = await createTenant(t);
    const { ticket } = await conversation(a, ["oi"]);
    await enable(a, { model: "simulador-erro" });
    const failed = await t.call("POST", `/tickets/${ticket.id}/copilot/summary`, { token: a.adminToken });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: "ERR_COPILOT_PROVIDER", data: { status: 500 } });
    await enable(a, { model: "simulador-lento" });
    const slow = await t.call("POST", `/tickets/${ticket.id}/copilot/summary`, { token: a.adminToken });
    expect(slow.body).toMatchObject({ error: "ERR_COPILOT_PROVIDER", data: { status: 0 } });
  });
});

describe("transcripts and transfers", () => {
  const runQueued = async (name: string) => {
    const batch = t.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && p.job.name === name);
    for (const p of batch) await runJob(t.container, p.job);
    return batch.length;
  };

  it("a customer's voice note gets its transcript (cut to the limit, noted), found by search", async () => {
    const a = await createTenant(t);
    await enable(a, { transcriptionModel: "whisper-test" });
    const number = `55119${String(60000000 + ++n)}`;
    const say = async (text: string) => {
      const key = `${a.company.id}/audio-${++n}.ogg`;
      await t.container.media.put(key, new TextEncoder().encode(text), "audio/ogg");
      t.clock.advance(1000);
      await deliver(t, customerMessage(a, { number, body: "", extra: { type: "audio", media: { key, mimetype: "audio/ogg", filename: "audio.ogg" }, timestamp: Math.floor(t.clock.now.getTime() / 1000) } as never }));
    };
    await say("quero saber do boleto");
    await say("esta gravação é bem mais longa do que o limite do provedor e será cortada");
    expect(await runQueued(COPILOT_TRANSCRIBE_JOB)).toBe(2);
    const got = sim.requests.filter((r) => r.endpoint === "transcription");
    expect(got.map((r) => [r.model, r.keyTail])).toEqual([["whisper-test", API_KEY.slice(-4)], ["whisper-test", API_KEY.slice(-4)]]);
    const list = await t.call("GET", "/tickets?showAll=true", { token: a.adminToken });
    const ticket = (list.body.tickets as { id: number; contact: { number: string } }[]).find((x) => x.contact.number === number)!;
    const msgs = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { mediaType: string; transcript?: string; transcriptCut?: boolean }[];
    expect(msgs.filter((m) => m.mediaType === "audio").map((m) => [m.transcript, m.transcriptCut ?? false])).toEqual([
      ["quero saber do boleto", false],
      ["esta gravação é bem mais longa do que", true],
    ]);
    const found = await t.call("GET", "/search?q=boleto", { token: a.adminToken });
    expect(JSON.stringify(found.body)).toContain(String(ticket.id));
  });

  it("no transcript is asked for when transcription is off", async () => {
    const a = await createTenant(t);
    await enable(a, { features: { ...features, transcription: false } });
    const key = `${a.company.id}/audio-${++n}.ogg`;
    await t.container.media.put(key, new TextEncoder().encode("alô"), "audio/ogg");
    await deliver(t, customerMessage(a, { number: `55119${String(60000000 + ++n)}`, body: "", extra: { type: "audio", media: { key, mimetype: "audio/ogg", filename: "audio.ogg" } } as never }));
    expect(await runQueued(COPILOT_TRANSCRIBE_JOB)).toBe(0);
    expect(sim.requests).toEqual([]);
  });

  it("a transfer from one attendant to another leaves the summary as an internal note, when the company wants it", async () => {
    const a = await createTenant(t);
    await enable(a, { summaryOnTransfer: true });
    const { ticket } = await conversation(a, ["minha internet caiu"], 0);
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { status: "open", userId: a.admin.id } })).status).toBe(200);
    expect(await runQueued(COPILOT_TRANSFER_SUMMARY_JOB)).toBe(0);
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { userId: a.user.id } })).status).toBe(200);
    expect(await runQueued(COPILOT_TRANSFER_SUMMARY_JOB)).toBe(1);
    const notes = await t.call("GET", `/ticket-notes/list?ticketId=${ticket.id}`, { token: a.adminToken });
    expect((notes.body as { note: string }[]).map((x) => x.note)).toEqual([expect.stringContaining('Resumo do copiloto: Resumo do simulador: 1 mensagens do cliente; a última: "minha internet caiu"')]);
  });
});
