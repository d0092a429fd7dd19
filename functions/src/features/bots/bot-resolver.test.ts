import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalSecretBox } from "../../platform/secrets/local-secret-box.adapter";
import type { BotTicket } from "./bot-inbox.port";
import { createBotResolver, type StoredPrompt } from "./bot-resolver";

const box = createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "resolver-")), "k"));
const ticket = (over: Partial<BotTicket> = {}): BotTicket => ({ id: 1, uuid: "u", companyId: 1, status: "pending", userId: null, queueId: 10, whatsappId: 20, contactId: 3, isGroup: false, ...over });

const setup = async () => {
  const prompt: StoredPrompt = {
    id: 5,
    name: "Bot",
    prompt: "Seja breve.",
    apiKey: await box.seal("sk-real-key-1234"),
    maxTokens: 100,
    temperature: 1,
    maxMessages: 7,
    voice: "texto",
    voiceKey: "",
    voiceRegion: "",
    monthlyTokenCap: 900,
  };
  const queues: Record<number, { promptId: number | null; integrationId: number | null }> = { 10: { promptId: 5, integrationId: null }, 11: { promptId: 5, integrationId: 8 }, 12: { promptId: null, integrationId: null } };
  return createBotResolver({
    queue: async (_c, id) => queues[id] ?? null,
    connection: async () => ({ promptId: 5, integrationId: null }),
    prompt: async (_c, id) => (id === 5 ? prompt : null),
    integration: async (_c, id) => (id === 8 ? { id: 8, type: "typebot" as const, typebotSlug: "demo" } : null),
    secrets: box,
  });
};

describe("bot resolver", () => {
  it("binds the queue's prompt with its key opened, its history size and cap", async () => {
    const r = await setup();
    expect(await r.resolve(ticket())).toMatchObject({
      kind: "prompt",
      id: 5,
      historyLimit: 7,
      monthlyTokenCap: 900,
      config: { apiKey: "sk-real-key-1234", model: "", baseUrl: "", handoverKeywords: ["atendente", "humano"] },
    });
  });

  it("prefers the queue's integration; a queue without a bot has none; a ticket without a queue takes the connection's", async () => {
    const r = await setup();
    expect(await r.resolve(ticket({ queueId: 11 }))).toMatchObject({ kind: "typebot", id: 8, config: { typebotSlug: "demo" } });
    expect(await r.resolve(ticket({ queueId: 12 }))).toBeNull();
    expect(await r.resolve(ticket({ queueId: null }))).toMatchObject({ kind: "prompt", id: 5 });
    expect(await r.resolve(ticket({ queueId: null, whatsappId: null }))).toBeNull();
  });
});
