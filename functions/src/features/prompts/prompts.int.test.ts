import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { createPromptsRepository } from "./prompts.repository";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
});

const API_KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz123456";
const body = (tenant: Tenant, over: Record<string, unknown> = {}) => ({
  name: "Atendente virtual",
  prompt: "Você é um atendente educado de uma padaria. Responda em português, com frases curtas.",
  apiKey: API_KEY,
  queueId: tenant.queues[0]!.id,
  ...over,
});
const create = (tenant: Tenant, over: Record<string, unknown> = {}, token = tenant.adminToken) => t.call("POST", "/prompt", { token, body: body(tenant, over) });
const list = async (tenant: Tenant) => (await t.call("GET", "/prompt", { token: tenant.adminToken })).body.prompts as { id: number; name: string }[];
/** What the table holds (the stored secret is sealed and opens to the one sent; answers must never show it). */
const stored = (tenant: Tenant, id: number) => createPromptsRepository(t.container.db).findById(tenant.company.id, id);

describe("AI prompts", () => {
  it("creates with the spec's defaults, lists with queue.name, edits and deletes, telling the company's admins", async () => {
    await t.container.services.sockets.connect("prompt-admin", a.adminToken);
    await t.container.services.sockets.connect("prompt-user", a.userToken);
    const mark = t.sender.frames.length;
    const made = await create(a, { companyId: b.company.id });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      name: "Atendente virtual",
      voice: "texto",
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      queueId: a.queues[0]!.id,
      queue: { id: a.queues[0]!.id, name: a.queues[0]!.name },
      companyId: a.company.id,
    });
    const id = made.body.id as number;

    const listed = (await t.call("GET", "/prompt", { token: a.adminToken })).body.prompts;
    expect(listed).toEqual([expect.objectContaining({ id, name: "Atendente virtual", maxTokens: 100, queue: expect.objectContaining({ name: a.queues[0]!.name }) })]);

    const edited = await t.call("PUT", `/prompt/${id}`, {
      token: a.adminToken,
      body: { name: "Assistente", maxTokens: 300, temperature: 0.5, voice: "pt-BR-FranciscaNeural", queueId: a.queues[1]!.id, maxMessages: 20 },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: "Assistente", maxTokens: 300, temperature: 0.5, voice: "pt-BR-FranciscaNeural", maxMessages: 20, queue: { name: a.queues[1]!.name } });
    expect((await t.call("GET", `/prompt/${id}`, { token: a.adminToken })).body.name).toBe("Assistente");

    const removed = await t.call("DELETE", `/prompt/${id}`, { token: a.adminToken });
    expect(removed).toMatchObject({ status: 200, body: { message: expect.any(String) } });
    expect((await t.call("GET", `/prompt/${id}`, { token: a.adminToken })).body.error).toBe("ERR_NO_PROMPT_FOUND");

    const frames = t.sender.frames.slice(mark).map((f) => ({ to: f.connectionId, ...(f.frame as { channel: string; data: { action: string; promptId?: number } }) }));
    const toAdmin = frames.filter((f) => f.to === "prompt-admin" && f.channel === `company-${a.company.id}-prompt`);
    expect(toAdmin.map((f) => f.data.action)).toEqual(["create", "update", "delete"]);
    expect(toAdmin[2]!.data.promptId).toBe(id);
    // secrets never travel, and attendants do not hear of prompts
    expect(JSON.stringify(toAdmin)).not.toContain(API_KEY);
    expect(frames.some((f) => f.to === "prompt-user" && f.channel.endsWith("-prompt"))).toBe(false);
  });

  it("never answers the API key in full, and keeps it when an edit sends it back masked or empty", async () => {
    const made = await create(a, { voiceKey: "azure-speech-key-0123456789abcdef", voiceRegion: "brazilsouth" });
    expect(made.body.apiKey).not.toContain(API_KEY.slice(0, 12));
    expect(made.body.apiKey).toMatch(/^•+3456$/);
    expect(made.body.voiceKey).toMatch(/^•+cdef$/);
    const id = made.body.id as number;
    for (const res of [await t.call("GET", `/prompt/${id}`, { token: a.adminToken }), await t.call("GET", "/prompt", { token: a.adminToken })]) {
      expect(JSON.stringify(res.body)).not.toContain(API_KEY);
      expect(JSON.stringify(res.body)).not.toContain("azure-speech-key");
    }
    // the dialog sends back what it received: the stored key stays
    await t.call("PUT", `/prompt/${id}`, { token: a.adminToken, body: { apiKey: made.body.apiKey, voiceKey: "", name: "Mesma chave" } });
    expect((await t.call("GET", `/prompt/${id}`, { token: a.adminToken })).body.apiKey).toBe(made.body.apiKey);
    // stored sealed (SecretBox), never as sent; the same secrets open from it
    const kept = (await stored(a, id))!;
    expect(kept).toMatchObject({ name: "Mesma chave", apiKey: expect.stringMatching(/^v1:local:/), voiceKey: expect.stringMatching(/^v1:local:/) });
    expect(JSON.stringify(kept)).not.toContain(API_KEY);
    expect(await t.container.secrets.open(kept.apiKey)).toBe(API_KEY);
    expect(await t.container.secrets.open(kept.voiceKey)).toBe("azure-speech-key-0123456789abcdef");
    // a new key replaces it
    await t.call("PUT", `/prompt/${id}`, { token: a.adminToken, body: { apiKey: "sk-new-key-000000000000000000009999" } });
    expect(await t.container.secrets.open((await stored(a, id))!.apiKey)).toBe("sk-new-key-000000000000000000009999");
    expect((await t.call("GET", `/prompt/${id}`, { token: a.adminToken })).body.apiKey).toMatch(/^•+9999$/);
  });

  it("refuses a prompt without a queue ('Informe o setor'), without name, text or key, or with bad numbers, storing nothing", async () => {
    const c = await createTenant(t);
    const noQueue = await create(c, { queueId: undefined });
    expect(noQueue).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect(noQueue.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: ["queueId"], message: "Informe o setor" })]));
    for (const over of [{ queueId: "" }, { name: "" }, { prompt: "   " }, { apiKey: "" }, { temperature: 3 }, { maxTokens: 0 }, { maxMessages: "muitas" }, { voice: "pt-PT-RaquelNeural" }]) {
      const res = await create(c, over);
      expect(res, JSON.stringify(over)).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
    expect(await list(c)).toEqual([]);
    const made = await create(c);
    const bad = await t.call("PUT", `/prompt/${made.body.id}`, { token: c.adminToken, body: { name: "", temperature: -1 } });
    expect(bad).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect((await t.call("GET", `/prompt/${made.body.id}`, { token: c.adminToken })).body).toMatchObject({ name: "Atendente virtual", temperature: 1 });
  });

  it("is refused when the plan has no OpenAI (every call), and to attendants", async () => {
    const c = await createTenant(t, { plan: { useOpenAi: false } });
    for (const [method, path] of [["GET", "/prompt"], ["GET", "/prompt/1"], ["POST", "/prompt"], ["PUT", "/prompt/1"], ["DELETE", "/prompt/1"]] as const) {
      const res = await t.call(method, path, { token: c.adminToken, body: method === "POST" || method === "PUT" ? body(c) : undefined });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    }
    const d = await createTenant(t);
    expect(await create(d, {}, d.userToken)).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect((await t.call("GET", "/prompt", { token: d.userToken })).status).toBe(403);
    expect(await list(d)).toEqual([]);
    expect((await t.call("GET", "/prompt")).status).toBe(401);
  });

  it("keeps companies apart: B cannot read, change or delete A's prompt, nor bind its prompt to A's queue", async () => {
    const mine = await create(a, { name: "Só da A" });
    const id = mine.body.id as number;
    expect((await t.call("GET", `/prompt/${id}`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("PUT", `/prompt/${id}`, { token: b.adminToken, body: { name: "Roubado" } })).status).toBe(404);
    expect((await t.call("DELETE", `/prompt/${id}`, { token: b.adminToken })).status).toBe(404);
    expect((await list(b)).map((p) => p.name)).not.toContain("Só da A");
    expect((await t.call("GET", `/prompt/${id}`, { token: a.adminToken })).body.name).toBe("Só da A");

    // ids are per company: A's third queue has an id B does not have
    const aOnly = await t.call("POST", "/queue", { token: a.adminToken, body: { name: "Só na A", color: "#5300EB", greetingMessage: "Oi" } });
    expect(b.queues.map((q) => q.id)).not.toContain(aOnly.body.id);
    const foreignQueue = await create(b, { queueId: aOnly.body.id });
    expect(foreignQueue).toMatchObject({ status: 404, body: { error: "ERR_NO_QUEUE_FOUND" } });
    const own = await create(b);
    const move = await t.call("PUT", `/prompt/${own.body.id}`, { token: b.adminToken, body: { queueId: aOnly.body.id } });
    expect(move).toMatchObject({ status: 404, body: { error: "ERR_NO_QUEUE_FOUND" } });
    expect((await t.call("GET", `/prompt/${own.body.id}`, { token: b.adminToken })).body.queueId).toBe(b.queues[0]!.id);
  });

  it("lets a queue use only its own company's prompt, and refuses deleting a prompt a queue uses", async () => {
    const c = await createTenant(t);
    const other = await create(b, { name: "Da B" });
    const queue = c.queues[0]!;
    const foreign = await t.call("PUT", `/queue/${queue.id}`, { token: c.adminToken, body: { promptId: other.body.id } });
    expect(foreign).toMatchObject({ status: 404, body: { error: "ERR_NO_PROMPT_FOUND" } });
    expect((await t.call("GET", `/queue/${queue.id}`, { token: c.adminToken })).body.promptId).toBeNull();
    const missing = await t.call("POST", "/queue", { token: c.adminToken, body: { name: "Nova fila", color: "#5300EB", greetingMessage: "Oi", promptId: 99999 } });
    expect(missing).toMatchObject({ status: 404, body: { error: "ERR_NO_PROMPT_FOUND" } });

    const ownPrompt = await create(c, { name: "Da C" });
    const linked = await t.call("PUT", `/queue/${queue.id}`, { token: c.adminToken, body: { promptId: ownPrompt.body.id } });
    expect(linked).toMatchObject({ status: 200, body: { promptId: ownPrompt.body.id } });
    const inUse = await t.call("DELETE", `/prompt/${ownPrompt.body.id}`, { token: c.adminToken });
    expect(inUse).toMatchObject({ status: 409, body: { error: "ERR_PROMPT_IN_USE", data: { queues: [queue.name] } } });
    expect((await list(c)).map((p) => p.id)).toContain(ownPrompt.body.id);

    await t.call("PUT", `/queue/${queue.id}`, { token: c.adminToken, body: { promptId: null } });
    expect((await t.call("DELETE", `/prompt/${ownPrompt.body.id}`, { token: c.adminToken })).status).toBe(200);
  });

  it("keeps a prompt whose queue is deleted, without a queue; editing it asks for a queue again", async () => {
    const c = await createTenant(t);
    const q = await t.call("POST", "/queue", { token: c.adminToken, body: { name: "Temporária", color: "#5300EB", greetingMessage: "Oi" } });
    const made = await create(c, { queueId: q.body.id });
    expect((await t.call("DELETE", `/queue/${q.body.id}`, { token: c.adminToken })).status).toBe(200);
    const after = await t.call("GET", `/prompt/${made.body.id}`, { token: c.adminToken });
    expect(after.body).toMatchObject({ queueId: null, queue: null });
    expect((await t.call("PUT", `/prompt/${made.body.id}`, { token: c.adminToken, body: { name: "Sem fila" } })).body.error).toBe("ERR_NO_QUEUE_FOUND");
    expect((await t.call("PUT", `/prompt/${made.body.id}`, { token: c.adminToken, body: { queueId: c.queues[1]!.id } })).body.queue.name).toBe(c.queues[1]!.name);
  });
});
