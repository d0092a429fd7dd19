import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumeJobs, runJob } from "@atende/functions/app/jobs-consumer";
import { createTenant, type Tenant } from "@atende/functions/testing/factories";
import { createTestApp, type TestApp } from "@atende/functions/testing/test-app";
import { customerMessage, deliver } from "@atende/functions/testing/inbox-fixtures";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { createAiSimulator, type AiSimulator } from "./ai-simulator.http";
import { BOT_TURN_JOB } from "@atende/functions/features/bots/bot-runner.service";

/**
 * The AI prompt in the conversation, through the real inbound consumer, jobs and HTTP API, with the AI simulator
 * answering over real HTTP (the `openai` package talks to it as to any OpenAI-compatible endpoint).
 */
let t: TestApp;
let sim: AiSimulator;
let server: Server;
let simUrl = "";
let n = 0;

beforeAll(async () => {
  sim = createAiSimulator();
  server = createServer(getRequestListener((req) => sim.fetch(req)));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  simUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", BOT_TIMEOUT_MS: "400", AZURE_SPEECH_BASE_URL: `${simUrl}/simulator/ai/azure/{region}` });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const API_KEY = "sk-proj-bots-int-0000000000000000000007777";

/** A prompt on the tenant's Suporte queue, pointed at the simulator. */
const promptOnSupport = async (tenant: Tenant, over: Record<string, unknown> = {}) => {
  const made = await t.call("POST", "/prompt", {
    token: tenant.adminToken,
    body: { name: "Assistente", prompt: "Você é o assistente da {{company}}.", apiKey: API_KEY, queueId: tenant.queues[1]!.id, baseUrl: `${simUrl}/simulator/ai/v1`, ...over },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const bound = await t.call("PUT", `/queue/${tenant.queues[1]!.id}`, { token: tenant.adminToken, body: { promptId: made.body.id } });
  expect(bound.status, JSON.stringify(bound.body)).toBe(200);
  return made.body as { id: number; apiKey: string };
};

/** Runs the queued bot turns (the jobs consumer would), including the ones they queue. */
const runBots = async () => {
  for (let round = 0; round < 20; round++) {
    const batch = t.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && p.job.name === BOT_TURN_JOB);
    if (!batch.length) return;
    await Promise.all(batch.map((p) => runJob(t.container, p.job)));
  }
};

const customer = (tenant: Tenant) => {
  const number = `55119${String(70000000 + ++n)}`;
  const jid = `${number}@s.whatsapp.net`;
  const sent = () => t.commands.sent.filter((c) => c.companyId === tenant.company.id && "chatJid" in c && c.chatJid === jid);
  const replies = () => sent().flatMap((c) => (c.type === "send" ? [c.body ?? ""] : []));
  return {
    number,
    replies,
    sent,
    async says(body: string, extra: NonNullable<Parameters<typeof customerMessage>[1]>["extra"] = {}) {
      const before = replies().length;
      // a second apart, as people write (the test clock stands still otherwise)
      t.clock.advance(1000);
      await deliver(t, customerMessage(tenant, { number, body, pushName: "Carla Dias", extra: { timestamp: Math.floor(t.clock.now.getTime() / 1000), ...extra } }));
      t.clock.advance(1000);
      await runBots();
      return replies().slice(before);
    },
    async ticket() {
      const res = await t.call("GET", "/tickets?showAll=true", { token: tenant.adminToken });
      return (res.body.tickets as { id: number; status: string; queueId: number | null; userId: number | null; contact: { number: string } }[]).find((x) => x.contact.number === number)!;
    },
  };
};
const chatRequests = () => sim.requests.filter((r) => r.endpoint === "chat");

describe("AI prompt in the conversation", () => {
  it("answers each message in Suporte with the newest maxMessages in order, the names, and never the message that chose the queue", async () => {
    const a = await createTenant(t, { name: "Padaria Pão Quente" });
    await promptOnSupport(a, { maxMessages: 3, maxTokens: 150, temperature: 0.2, model: "modelo-da-empresa" });
    const c = customer(a);
    await c.says("oi");
    const before = chatRequests().length;
    expect(await c.says("2")).toEqual(["Fila Suporte"]);
    expect(chatRequests().length).toBe(before);
    expect(await c.says("qual o horário de vocês?")).toEqual(['Você disse: "qual o horário de vocês?"']);
    expect(await c.says("e no sábado?")).toEqual(['Você disse: "e no sábado?"']);
    const asked = chatRequests().at(-1)!;
    expect(asked).toMatchObject({ model: "modelo-da-empresa", maxTokens: 150, temperature: 0.2, keyTail: "7777" });
    expect(asked.messages![0]!.content).toContain("Você é o assistente da Padaria Pão Quente.");
    expect(asked.messages![0]!.content).toContain('"Carla Dias"');
    // the newest 3 of: oi, menu, 2, greeting, q1, a1, q2 -> q1, a1, q2, oldest first
    expect(asked.messages!.slice(1)).toEqual([
      { role: "user", content: "qual o horário de vocês?" },
      { role: "assistant", content: 'Você disse: "qual o horário de vocês?"' },
      { role: "user", content: "e no sábado?" },
    ]);
    expect(await c.ticket()).toMatchObject({ status: "pending", userId: null, queueId: a.queues[1]!.id });
  });

  it("two messages of the same second get their own answers, in order (WhatsApp times are whole seconds)", async () => {
    const a = await createTenant(t);
    await promptOnSupport(a);
    const c = customer(a);
    await c.says("oi");
    await c.says("2");
    t.clock.advance(1000);
    const second = Math.floor(t.clock.now.getTime() / 1000);
    for (const body of ["primeira dúvida", "segunda dúvida", "terceira dúvida"])
      await deliver(t, customerMessage(a, { number: c.number, body, pushName: "Carla Dias", extra: { timestamp: second } }));
    t.clock.advance(1000);
    await runBots();
    expect(c.replies().slice(-3)).toEqual(['Você disse: "primeira dúvida"', 'Você disse: "segunda dúvida"', 'Você disse: "terceira dúvida"']);
    // the first turn did not see the two that were still waiting
    const firstTurn = chatRequests().find((r) => r.answer === 'Você disse: "primeira dúvida"')!;
    expect(firstTurn.messages!.map((m) => m.content)).not.toContain("segunda dúvida");
  });

  it("hands over on 'atendente': pending in Suporte with a note; the bot stays silent, and after the attendant accepts", async () => {
    const a = await createTenant(t);
    await promptOnSupport(a);
    const c = customer(a);
    await c.says("oi");
    await c.says("2");
    await c.says("meu pedido não chegou");
    const before = chatRequests().length;
    expect(await c.says("quero falar com um atendente")).toEqual([]);
    const ticket = await c.ticket();
    expect(ticket).toMatchObject({ status: "pending", userId: null, queueId: a.queues[1]!.id });
    const notes = await t.call("GET", `/ticket-notes/list?ticketId=${ticket.id}`, { token: a.adminToken });
    expect(notes.status).toBe(200);
    expect(JSON.stringify(notes.body)).toContain('O cliente pediu para falar com um atendente (\\"atendente\\")');
    expect(JSON.stringify(notes.body)).toContain("meu pedido não chegou");
    expect(await c.says("alô?")).toEqual([]);
    const accepted = await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { status: "open", userId: a.admin.id } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    await c.says("obrigada");
    // the summary call (one) and nothing after
    expect(chatRequests().length - before).toBeLessThanOrEqual(1);
    expect(c.replies().some((r) => r.startsWith("Você disse"))).toBe(true);
    expect(c.replies().filter((r) => r.startsWith("Você disse")).length).toBe(1);
  });

  it("a model that calls the handover tool hands over with its reason and summary", async () => {
    const a = await createTenant(t);
    await promptOnSupport(a);
    const c = customer(a);
    await c.says("oi");
    await c.says("2");
    await c.says("quero falar com o gerente");
    const ticket = await c.ticket();
    const notes = JSON.stringify((await t.call("GET", `/ticket-notes/list?ticketId=${ticket.id}`, { token: a.adminToken })).body);
    expect(notes).toContain("o cliente pediu para falar com um gerente");
    expect(notes).toContain('O cliente escreveu: \\"quero falar com o gerente\\"');
  });

  it("a bot that times out is tried twice, then hands over with the reason; the customer's message stays", async () => {
    const a = await createTenant(t);
    await promptOnSupport(a, { model: "simulador-lento" });
    const c = customer(a);
    await c.says("oi");
    await c.says("2");
    const before = chatRequests().length;
    expect(await c.says("vocês entregam hoje?")).toEqual([]);
    expect(chatRequests().length - before).toBe(2);
    const ticket = await c.ticket();
    const notes = JSON.stringify((await t.call("GET", `/ticket-notes/list?ticketId=${ticket.id}`, { token: a.adminToken })).body);
    expect(notes).toContain("O bot não respondeu a tempo");
    const messages = await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken });
    expect(JSON.stringify(messages.body)).toContain("vocês entregam hoje?");
    expect(ticket).toMatchObject({ status: "pending", userId: null });
  });

  it("a slow bot delays only its own chat: in one jobs batch, another ticket is answered while it still waits", async () => {
    // its own app: a bot call may wait 30 s here, and the slow model answers only when the test releases it
    const t2 = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", BOT_TIMEOUT_MS: "30000" });
    const slow = await createTenant(t2);
    const fast = await createTenant(t2);
    const bind = async (tenant: Tenant, model: string) => {
      const made = await t2.call("POST", "/prompt", {
        token: tenant.adminToken,
        body: { name: "Assistente", prompt: "Seja breve.", apiKey: API_KEY, queueId: tenant.queues[1]!.id, baseUrl: `${simUrl}/simulator/ai/v1`, model },
      });
      await t2.call("PUT", `/queue/${tenant.queues[1]!.id}`, { token: tenant.adminToken, body: { promptId: made.body.id } });
    };
    await bind(slow, "simulador-espera");
    await bind(fast, "simulador");
    const repliesOf = (tenant: Tenant, number: string) =>
      t2.commands.sent.flatMap((c) => (c.type === "send" && c.companyId === tenant.company.id && c.chatJid === `${number}@s.whatsapp.net` ? [c.body ?? ""] : []));
    const write = async (tenant: Tenant, number: string, body: string) => {
      t2.clock.advance(1000);
      await deliver(t2, customerMessage(tenant, { number, body, pushName: "Carla Dias", extra: { timestamp: Math.floor(t2.clock.now.getTime() / 1000) } }));
    };
    const [ns, nf] = [`55119${String(70000000 + ++n)}`, `55119${String(70000000 + ++n)}`];
    for (const [tenant, number] of [[slow, ns], [fast, nf]] as const) {
      await write(tenant, number, "oi");
      await write(tenant, number, "2");
    }
    t2.jobs.pending.splice(0);
    await write(slow, ns, "alguém aí?");
    await write(fast, nf, "qual o preço?");
    const jobs = t2.jobs.pending.splice(0).filter((p) => p.job.type === "feature" && p.job.name === BOT_TURN_JOB);
    expect(jobs).toHaveLength(2);
    let settled = false;
    const batch = consumeJobs(t2.container, {
      Records: jobs.map((p, i) => ({ messageId: `j${i}`, receiptHandle: "r", body: JSON.stringify(p.job), attributes: {} as never, messageAttributes: {}, md5OfBody: "", eventSource: "aws:sqs", eventSourceARN: "arn", awsRegion: "us-east-1" })),
    }).then((r) => {
      settled = true;
      return r;
    });
    for (let i = 0; i < 800 && !repliesOf(fast, nf).includes('Você disse: "qual o preço?"'); i++) await new Promise((r) => setTimeout(r, 25));
    // the fast chat was answered while the slow model still holds its answer: the batch is not done
    expect(repliesOf(fast, nf)).toContain('Você disse: "qual o preço?"');
    expect(repliesOf(slow, ns)).not.toContain('Você disse: "alguém aí?"');
    expect(settled).toBe(false);
    // release only once the slow call is held (on a busy machine it may not have reached the model yet)
    for (let i = 0; i < 800 && sim.held() === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(sim.held()).toBe(1);
    sim.release();
    expect((await batch).batchItemFailures).toEqual([]);
    expect(repliesOf(slow, ns)).toContain('Você disse: "alguém aí?"');
  });

  it("counts tokens per prompt and company this month, shows them on GET /prompt, and hands over past the cap", async () => {
    const a = await createTenant(t);
    const p = await promptOnSupport(a, { monthlyTokenCap: 1 });
    const c = customer(a);
    await c.says("oi");
    await c.says("2");
    expect(await c.says("primeira pergunta")).toEqual(['Você disse: "primeira pergunta"']);
    const list = (await t.call("GET", "/prompt", { token: a.adminToken })).body;
    const mine = list.prompts.find((x: { id: number }) => x.id === p.id);
    expect(mine.tokensThisMonth).toBeGreaterThan(1);
    expect(list.usage).toMatchObject({ month: t.clock.now.toISOString().slice(0, 7), totalTokens: mine.tokensThisMonth });
    expect(await c.says("segunda pergunta")).toEqual([]);
    const notes = JSON.stringify((await t.call("GET", `/ticket-notes/list?ticketId=${(await c.ticket()).id}`, { token: a.adminToken })).body);
    expect(notes).toContain("limite mensal de tokens");
  });

  it("never stores or answers the API key in clear; the model still gets the real key", async () => {
    const a = await createTenant(t);
    const p = await promptOnSupport(a, { voiceKey: "azure-voice-key-000000000000abcd", voiceRegion: "brazilsouth" });
    expect(p.apiKey).toMatch(/^•+7777$/);
    for (const res of [await t.call("GET", `/prompt/${p.id}`, { token: a.adminToken }), await t.call("GET", "/prompt", { token: a.adminToken })]) {
      expect(JSON.stringify(res.body)).not.toContain(API_KEY);
      expect(JSON.stringify(res.body)).not.toContain("azure-voice-key");
    }
    // the item as the table holds it (the prompts feature's key: CO#<company> / PROMPT#<id, 10 digits>)
    const stored = (await t.container.db.doc.send(new GetCommand({ TableName: t.container.db.tableName, Key: { pk: `CO#${a.company.id}`, sk: `PROMPT#${String(p.id).padStart(10, "0")}` } }))).Item as {
      apiKey: string;
      voiceKey: string;
    } | undefined;
    expect(stored!.apiKey).toMatch(/^v1:local:/);
    expect(stored!.voiceKey).toMatch(/^v1:local:/);
    expect(await t.container.secrets.open(stored!.apiKey)).toBe(API_KEY);
    const c = customer(a);
    await c.says("oi");
    await c.says("2");
    await c.says("oi de novo");
    expect(chatRequests().at(-1)!.keyTail).toBe("7777");
  });

  it("keeps companies apart: B sees neither A's prompt nor A's tokens", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t);
    const p = await promptOnSupport(a);
    const c = customer(a);
    await c.says("oi");
    await c.says("2");
    await c.says("uma pergunta");
    const bList = (await t.call("GET", "/prompt", { token: b.adminToken })).body;
    expect(bList.prompts.map((x: { id: number; companyId: number }) => x.companyId)).not.toContain(a.company.id);
    expect(bList.usage.totalTokens).toBe(0);
    expect((await t.call("GET", `/prompt/${p.id}`, { token: b.adminToken })).status).toBe(404);
  });

  it("transcribes a customer's audio, stores the transcript on the message, and answers in the prompt's voice too", async () => {
    const a = await createTenant(t);
    await promptOnSupport(a, { voice: "pt-BR-FranciscaNeural", voiceKey: "azure-voice-key-000000000000abcd", voiceRegion: "brazilsouth" });
    const c = customer(a);
    await c.says("oi");
    await c.says("2");
    const key = `${a.company.id}/audio-${n}.ogg`;
    await t.container.media.put(key, new TextEncoder().encode("qual o preço do pão"), "audio/ogg");
    await c.says("", { type: "audio", media: { key, mimetype: "audio/ogg", filename: "audio.ogg" } } as never);
    const ticket = await c.ticket();
    const messages = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { mediaType: string; transcript?: string | null; fromMe: boolean; body: string }[];
    expect(messages.find((m) => m.mediaType === "audio" && !m.fromMe)?.transcript).toBe("qual o preço do pão");
    expect(c.replies()).toContain('Você disse: "qual o preço do pão"');
    expect(sim.requests.some((r) => r.endpoint === "speech" && r.model === "pt-BR-FranciscaNeural" && r.keyTail === "abcd")).toBe(true);
    expect(c.sent().some((s) => s.type === "send" && (s as { media?: { mimetype?: string } }).media?.mimetype?.startsWith("audio/ogg"))).toBe(true);
  });
});
