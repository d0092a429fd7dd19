import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serveHttp } from "@atende/functions/testing/serve-http";
import { BotTransientError, type BotTurnInput, type BotTurnResult } from "@atende/functions/features/bots/bot-engine.port";
import { createTypebotSimulatorHttp, TYPEBOT_DEMO_SLUG } from "./typebot-simulator.http";
import { bubbleToMessages, createTypebotEngine, markdownToWhatsapp, typebotApiBase, type TypebotConfig } from "@atende/functions/features/bots/engines/typebot.engine";

/** The Typebot engine against the Typebot stand-in over real HTTP (the chat API's own shapes). */
let stub: Awaited<ReturnType<typeof serveHttp>>;
let base: string;
beforeAll(async () => {
  stub = await serveHttp(createTypebotSimulatorHttp().fetch);
  base = `${stub.url}/simulator/typebot`;
});
afterAll(() => stub.close());
beforeEach(async () => {
  await fetch(`${base}/api/control`, { method: "POST", body: JSON.stringify({ failNext: 0, delayMs: 0 }) });
});

const engine = createTypebotEngine();
const config = (over: Partial<TypebotConfig> = {}): TypebotConfig => ({
  urlN8N: base,
  typebotSlug: TYPEBOT_DEMO_SLUG,
  typebotExpires: 5,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: "sair",
  typebotKeywordRestart: "reiniciar",
  typebotUnknownMessage: "Não entendi, escolha uma das opções.",
  typebotRestartMessage: "Vamos recomeçar!",
  ...over,
});
let seq = 0;
const turn = (body: string, state: BotTurnResult["state"], now = new Date("2026-11-24T10:00:00Z"), over: Partial<TypebotConfig> = {}, message: Partial<BotTurnInput["message"]> = {}) =>
  engine.turn(config(over), {
    company: { id: 1, name: "Padaria Pão Quente" },
    connection: { id: 2, name: "WhatsApp" },
    queue: { id: 3, name: "Suporte" },
    ticket: { id: 40, uuid: "7b0f6a4e-0000-4000-8000-000000000040", queueId: 3 },
    contact: { id: 5, name: "Maria Souza", number: "5511999990001" },
    message: { id: `m${++seq}`, body, createdAt: now.toISOString(), ...message },
    history: [],
    state,
    now,
    signal: AbortSignal.timeout(5000),
  });
const texts = (r: BotTurnResult) => r.messages.map((m) => (m.kind === "text" ? m.body : m.kind === "media" ? `[${m.mediaType}]` : "[voice]"));
const sessions = async () => ((await (await fetch(`${base}/api/sessions`)).json()) as { sessions: { id: string; vars: Record<string, string>; ended: boolean }[] }).sessions;

describe("Typebot engine (against the stand-in)", () => {
  it("runs the demo flow: greeting with a picture, a name, a choice by number, then the end hands over", async () => {
    const first = await turn("Olá", null);
    expect(texts(first)).toEqual(["Olá, Maria! Eu sou o *assistente virtual* da Padaria Pão Quente.", "[image]", "Para começar, qual é o seu nome?"]);
    expect(first.delayMs).toBe(1000);
    expect(first.actions).toEqual([]);
    const image = first.messages[1]!;
    expect(image.kind === "media" && image.url).toBe(`${base}/media/boas-vindas.png`);
    const png = await fetch((image as { url: string }).url);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe("PNG");
    const sessionId = first.state!.sessionId as string;
    expect((await sessions()).find((s) => s.id === sessionId)?.vars).toMatchObject({ name: "Maria Souza", number: "5511999990001", ticketId: "40" });

    const second = await turn("Maria", first.state);
    expect(texts(second)).toEqual(["Prazer, Maria! Sobre o que você quer falar?", "*1* - Pedidos\n*2* - Financeiro\n*3* - Outro assunto"]);
    expect(second.state).toMatchObject({ sessionId, choices: ["Pedidos", "Financeiro", "Outro assunto"], inputType: "choice input" });

    const third = await turn("2", second.state);
    expect(texts(third)).toEqual(["Anotado: Financeiro. Um atendente vai continuar a conversa com você em instantes."]);
    expect(third.state).toBeNull();
    expect(third.actions).toEqual([expect.objectContaining({ type: "handover", reason: "o fluxo do Typebot chegou ao fim" })]);
    expect((await sessions()).find((s) => s.id === sessionId)?.ended).toBe(true);
  });

  it("answers what the flow cannot take with typebotUnknownMessage and the options again, staying on the question", async () => {
    const first = await turn("oi", null);
    const second = await turn("Ana", first.state);
    const wrong = await turn("quero pizza", second.state);
    expect(texts(wrong)).toEqual(["Não entendi, escolha uma das opções.", "*1* - Pedidos\n*2* - Financeiro\n*3* - Outro assunto"]);
    expect(wrong.actions).toEqual([]);
    expect(wrong.state?.sessionId).toBe(first.state?.sessionId);
    const sticker = await turn("", second.state, undefined, {}, { mediaType: "image", mediaUrl: "https://example.com/s.webp" });
    expect(texts(sticker)[0]).toBe("Não entendi, escolha uma das opções.");
    const right = await turn("pedidos", wrong.state);
    expect(texts(right)[0]).toBe("Anotado: Pedidos. Um atendente vai continuar a conversa com você em instantes.");
  });

  it("the finish keyword ends the session and hands over; the restart keyword starts over with the restart message", async () => {
    const first = await turn("oi", null);
    const finish = await turn("  SAIR ", first.state);
    expect(finish).toMatchObject({ messages: [], state: null, actions: [{ type: "handover", reason: 'o cliente encerrou o Typebot com "sair"' }] });

    const again = await turn("oi", null);
    const named = await turn("João", again.state);
    const restart = await turn("Reiniciar", named.state);
    expect(texts(restart)).toEqual(["Vamos recomeçar!", "Olá, Maria! Eu sou o *assistente virtual* da Padaria Pão Quente.", "[image]", "Para começar, qual é o seu nome?"]);
    expect(restart.state?.sessionId).not.toBe(named.state?.sessionId);
  });

  it("a session idle longer than typebotExpires minutes is over: the next message starts the flow again (0 never expires)", async () => {
    const t0 = new Date("2026-11-24T10:00:00Z");
    const first = await turn("oi", null, t0, { typebotExpires: 2 });
    const late = await turn("Maria", first.state, new Date(t0.getTime() + 2 * 60_000 + 1), { typebotExpires: 2 });
    expect(texts(late)[0]).toBe("Olá, Maria! Eu sou o *assistente virtual* da Padaria Pão Quente.");
    expect(late.state?.sessionId).not.toBe(first.state?.sessionId);
    const inTime = await turn("Maria", late.state, new Date(t0.getTime() + 3 * 60_000), { typebotExpires: 2 });
    expect(texts(inTime)[0]).toBe("Prazer, Maria! Sobre o que você quer falar?");
    const never = await turn("Maria", first.state, new Date(t0.getTime() + 24 * 3600_000), { typebotExpires: 0 });
    expect(texts(never)[0]).toBe("Prazer, Maria! Sobre o que você quer falar?");
  });

  it("a session Typebot forgot (404) starts the flow afresh", async () => {
    const first = await turn("oi", null);
    await fetch(`${base}/api/sessions/${first.state!.sessionId as string}`, { method: "DELETE" });
    const next = await turn("Maria", first.state);
    expect(texts(next)[0]).toBe("Olá, Maria! Eu sou o *assistente virtual* da Padaria Pão Quente.");
  });

  it("audio and video bubbles become media messages", async () => {
    const r = await turn("oi", null, undefined, { typebotSlug: "atende-midias" });
    expect(r.messages).toEqual([
      { kind: "text", body: "Ouça e assista:" },
      { kind: "media", mediaType: "audio", url: `${base}/media/aviso.wav` },
      { kind: "media", mediaType: "video", url: `${base}/media/video.mp4` },
      { kind: "text", body: "Gostou?" },
    ]);
  });

  it("5xx and an unreachable server are transient (the runner retries once); an unknown slug is final", async () => {
    await fetch(`${base}/api/control`, { method: "POST", body: JSON.stringify({ failNext: 1, failStatus: 503 }) });
    await expect(turn("oi", null)).rejects.toBeInstanceOf(BotTransientError);
    expect(texts(await turn("oi", null))[0]).toContain("Olá, Maria!");
    const offline = turn("oi", null, undefined, { urlN8N: "http://127.0.0.1:9" });
    await expect(offline).rejects.toBeInstanceOf(BotTransientError);
    const unknownSlug = turn("oi", null, undefined, { typebotSlug: "nao-existe" });
    await expect(unknownSlug).rejects.toThrow(/Typebot refused the call \(404\)/);
    await expect(turn("oi", null, undefined, { typebotSlug: "nao-existe" })).rejects.not.toBeInstanceOf(BotTransientError);
  });

  it("a call that outlives the runner's timeout is aborted and transient", async () => {
    await fetch(`${base}/api/control`, { method: "POST", body: JSON.stringify({ delayMs: 1000 }) });
    const started = Date.now();
    const slow = engine.turn(config(), {
      company: { id: 1, name: "X" },
      connection: { id: 2, name: "W" },
      queue: null,
      ticket: { id: 1, uuid: "u", queueId: null },
      contact: { id: 1, name: "Ana", number: "55" },
      message: { id: "slow", body: "oi", createdAt: new Date().toISOString() },
      history: [],
      state: null,
      now: new Date(),
      signal: AbortSignal.timeout(100),
    });
    await expect(slow).rejects.toBeInstanceOf(BotTransientError);
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe("Typebot answers to messages", () => {
  it("takes the server address with or without /api/v1", () => {
    expect(typebotApiBase("https://bot.exemplo.com.br/")).toBe("https://bot.exemplo.com.br/api/v1");
    expect(typebotApiBase("https://bot.exemplo.com.br/api/v1")).toBe("https://bot.exemplo.com.br/api/v1");
  });
  it("turns markdown and rich text into WhatsApp text; hosted videos and embeds into links", () => {
    expect(markdownToWhatsapp("**Oi**, ~~não~~ tudo bem\\!")).toBe("*Oi*, ~não~ tudo bem!");
    expect(bubbleToMessages({ type: "text", content: { richText: [{ type: "p", children: [{ text: "Oi " }, { text: "você", bold: true }] }, { type: "p", children: [{ text: "linha 2" }] }] } })).toEqual([
      { kind: "text", body: "Oi *você*\nlinha 2" },
    ]);
    expect(bubbleToMessages({ type: "video", content: { url: "https://youtu.be/x", type: "youtube" } })).toEqual([{ kind: "text", body: "https://youtu.be/x" }]);
    expect(bubbleToMessages({ type: "embed", content: { url: "https://mapa" } })).toEqual([{ kind: "text", body: "https://mapa" }]);
    expect(bubbleToMessages({ type: "image", content: {} })).toEqual([]);
  });
});
