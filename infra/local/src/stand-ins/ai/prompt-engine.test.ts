import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createAiSimulator } from "./ai-simulator.http";
import { createAzureSpeech } from "@atende/functions/features/bots/azure-speech.client";
import { BotTransientError, type BotTurnInput } from "@atende/functions/features/bots/bot-engine.port";
import { createPromptEngine, DEFAULT_MODEL, HANDOVER_TOOL, type PromptBotConfig } from "@atende/functions/features/bots/prompt-engine";

/** The engine against the AI simulator, in process (the SDK's fetch goes straight to the simulator's handler). */
const setup = () => {
  const sim = createAiSimulator();
  const viaSim = ((url: string | URL | Request, init?: RequestInit) => sim.fetch(new Request(url, init))) as typeof fetch;
  const engine = createPromptEngine({
    speech: createAzureSpeech({ baseUrl: "http://sim/simulator/ai/azure/{region}", fetch: viaSim }),
    openAi: (cfg) => new OpenAI({ apiKey: cfg.apiKey, baseURL: cfg.baseUrl, maxRetries: 0, fetch: viaSim }),
  });
  return { sim, engine };
};

const cfg = (over: Partial<PromptBotConfig> = {}): PromptBotConfig => ({
  id: 1,
  name: "Atendente virtual",
  prompt: "Você é a atendente da {{company}}. Chame o cliente de {{firstName}}.",
  model: "",
  baseUrl: "http://sim/simulator/ai/v1",
  apiKey: "sk-test-0000000000001234",
  maxTokens: 120,
  temperature: 0.3,
  maxMessages: 3,
  voice: "texto",
  voiceKey: "",
  voiceRegion: "",
  handoverKeywords: ["atendente", "humano"],
  ...over,
});

const input = (over: Partial<BotTurnInput> = {}): BotTurnInput => {
  const history = ["um", "dois", "três", "quatro", "cinco"].map((body, i) => ({ fromMe: i % 2 === 1, body, createdAt: `2026-11-24T10:0${i}:00.000Z` }));
  return {
    company: { id: 1, name: "Padaria Pão Quente" },
    connection: { id: 1, name: "Loja" },
    queue: { id: 2, name: "Suporte" },
    ticket: { id: 9, uuid: "u", queueId: 2 },
    contact: { id: 3, name: "Maria Souza", number: "5511999990000" },
    message: { id: "m5", body: "cinco", createdAt: history[4]!.createdAt },
    history,
    state: null,
    now: new Date(),
    signal: new AbortController().signal,
    ...over,
  };
};

describe("AI prompt engine (against the AI simulator)", () => {
  it("sends the prompt as the system message with the names, the newest maxMessages oldest first, maxTokens and temperature", async () => {
    const { sim, engine } = setup();
    const out = await engine.turn(cfg(), input());
    expect(out.messages).toEqual([{ kind: "text", body: 'Você disse: "cinco"' }]);
    expect(out.actions).toEqual([]);
    expect(out.usage!.promptTokens).toBeGreaterThan(0);
    expect(out.usage!.completionTokens).toBe(Math.ceil('Você disse: "cinco"'.length / 4));
    const asked = sim.requests[0]!;
    expect(asked).toMatchObject({ endpoint: "chat", model: DEFAULT_MODEL, keyTail: "1234", maxTokens: 120, temperature: 0.3, tools: [HANDOVER_TOOL] });
    expect(asked.messages![0]!.role).toBe("system");
    expect(asked.messages![0]!.content).toContain("Você é a atendente da Padaria Pão Quente. Chame o cliente de Maria.");
    expect(asked.messages![0]!.content).toContain('O cliente se chama "Maria Souza"');
    expect(asked.messages!.slice(1)).toEqual([
      { role: "user", content: "três" },
      { role: "assistant", content: "quatro" },
      { role: "user", content: "cinco" },
    ]);
  });

  it("hands over only through the tool call, with the model's reason and summary", async () => {
    const { engine } = setup();
    const history = [{ fromMe: false, body: "quero falar com um gerente", createdAt: "2026-11-24T10:00:00.000Z" }];
    const out = await engine.turn(cfg({ model: "gpt-4.1-mini" }), input({ history, message: { id: "m", body: history[0]!.body, createdAt: history[0]!.createdAt } }));
    expect(out.messages).toEqual([]);
    expect(out.actions).toEqual([{ type: "handover", reason: "o cliente pediu para falar com um gerente", note: 'O cliente escreveu: "quero falar com um gerente".' }]);
    expect(out.state).toBeNull();
  });

  it("transcribes a customer's audio before the model; a spoken keyword hands over without calling the model", async () => {
    const { sim, engine } = setup();
    const audio = (text: string) =>
      input({
        message: { id: "a1", body: "", mediaType: "audio", mediaUrl: "/m", createdAt: "2026-11-24T10:05:00.000Z" },
        history: [{ fromMe: false, body: "", mediaType: "audio", createdAt: "2026-11-24T10:05:00.000Z" }],
        readMedia: async () => new TextEncoder().encode(text),
      });
    const out = await engine.turn(cfg(), audio("qual o preço do pão francês"));
    expect(out.transcript).toBe("qual o preço do pão francês");
    expect(out.messages).toEqual([{ kind: "text", body: 'Você disse: "qual o preço do pão francês"' }]);
    expect(sim.requests.map((r) => r.endpoint)).toEqual(["transcription", "chat"]);

    const asks = await engine.turn(cfg(), audio("eu quero um atendente"));
    expect(asks).toMatchObject({ transcript: "eu quero um atendente", actions: [{ type: "handover" }] });
    expect(sim.requests.map((r) => r.endpoint)).toEqual(["transcription", "chat", "transcription"]);
  });

  it("also answers with a voice note in the prompt's voice (Azure speech with voiceKey/voiceRegion)", async () => {
    const { sim, engine } = setup();
    const out = await engine.turn(cfg({ voice: "pt-BR-FranciscaNeural", voiceKey: "azure-key-abcd", voiceRegion: "brazilsouth" }), input());
    expect(out.messages.map((m) => m.kind)).toEqual(["text", "voice"]);
    const voice = out.messages[1] as { kind: "voice"; audio: Uint8Array; mimetype: string };
    expect(voice.mimetype).toBe("audio/ogg; codecs=opus");
    expect(new TextDecoder().decode(voice.audio)).toContain("voice=pt-BR-FranciscaNeural region=brazilsouth");
    expect(sim.requests.at(-1)).toMatchObject({ endpoint: "speech", model: "pt-BR-FranciscaNeural", keyTail: "abcd", answer: 'Você disse: "cinco"' });
  });

  it("stops waiting for a hung model when the runner's signal aborts", async () => {
    const { engine } = setup();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    await expect(engine.turn(cfg({ model: "simulador-lento" }), input({ signal: ac.signal }))).rejects.toBeTruthy();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("tells transient failures (5xx) from final ones (401), and summarises for a handover note", async () => {
    const { engine } = setup();
    await expect(engine.turn(cfg({ model: "simulador-erro" }), input())).rejects.toBeInstanceOf(BotTransientError);
    const final = await engine.turn(cfg({ apiKey: "" }), input()).catch((e: unknown) => e);
    expect(final).not.toBeInstanceOf(BotTransientError);
    const s = await engine.summarize!(cfg(), input());
    expect(s.summary).toBe('Resumo do simulador: 2 mensagens do cliente; a última: "cinco".');
    expect(engine.handoverKeywords!(cfg())).toEqual(["atendente", "humano"]);
  });
});
