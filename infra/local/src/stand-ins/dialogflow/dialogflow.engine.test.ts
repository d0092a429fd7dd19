import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { serveHttp } from "@atende/functions/testing/serve-http";
import { createDialogflowRest, DialogflowError } from "@atende/functions/platform/dialogflow/dialogflow-rest.adapter";
import { BotTransientError, type BotTurnInput } from "@atende/functions/features/bots/bot-engine.port";
import { createDialogflowSimulatorHttp } from "./dialogflow-simulator.http";
import { createDialogflowEngine, type DialogflowConfig } from "@atende/functions/features/bots/engines/dialogflow.engine";

/** The DialogFlow engine (service account → signed JWT → token → detectIntent) against the stand-in over real HTTP. */
let stub: Awaited<ReturnType<typeof serveHttp>>;
let base: string;
beforeAll(async () => {
  stub = await serveHttp(createDialogflowSimulatorHttp().fetch);
  base = `${stub.url}/simulator/dialogflow`;
});
afterAll(() => stub.close());

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
const account = (project: string) => JSON.stringify({ type: "service_account", project_id: project, client_email: `bot@${project}.iam.gserviceaccount.com`, private_key: privateKey });
const config = (over: Partial<DialogflowConfig> = {}): DialogflowConfig => ({ projectName: "agente-123", jsonContent: account("agente-123"), language: "pt-BR", ...over });
const input = (body: string, state: Record<string, unknown> | null = null): BotTurnInput => ({
  company: { id: 1, name: "Padaria" },
  connection: { id: 2, name: "WhatsApp" },
  queue: { id: 3, name: "Suporte" },
  ticket: { id: 40, uuid: "u-40", queueId: 3 },
  contact: { id: 5, name: "Maria", number: "5511999990001" },
  message: { id: `m-${body}`, body, createdAt: new Date().toISOString() },
  history: [],
  state,
  now: new Date(),
  signal: AbortSignal.timeout(5000),
});
const queries = async () => (await (await fetch(`${base}/api/queries`)).json()) as { session: string; text: string; intent: string; languageCode: string }[];

describe("DialogFlow engine (against the stand-in)", () => {
  const fetchSpy = vi.fn(fetch);
  let engine: ReturnType<typeof createDialogflowEngine>;
  beforeAll(() => {
    engine = createDialogflowEngine({ rest: createDialogflowRest({ tokenUrl: `${base}/token`, apiBase: base, fetch: fetchSpy as typeof fetch }) });
  });

  it("sends each message to detectIntent on one session and answers the fulfilment messages (text and image)", async () => {
    const first = await engine.turn(config(), input("Olá"));
    expect(first.messages).toEqual([
      { kind: "text", body: "Olá! Sou o agente DialogFlow de teste." },
      { kind: "text", body: 'Pergunte sobre horário ou preço, ou diga "atendente".' },
    ]);
    expect(first.actions).toEqual([]);
    const sessionId = first.state!.sessionId as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const price = await engine.turn(config(), input("qual o preço?", first.state));
    expect(price.messages).toEqual([
      { kind: "text", body: "O plano básico custa R$ 99 por mês. Veja a tabela:" },
      { kind: "media", mediaType: "image", url: `${base}/media/preco.png`, caption: "Tabela de preços" },
    ]);
    expect(price.state).toEqual({ sessionId });
    const [last, prev] = await queries();
    expect(last).toMatchObject({ session: sessionId, text: "qual o preço?", intent: "Preço", languageCode: "pt-BR" });
    expect(prev).toMatchObject({ session: sessionId, text: "Olá", intent: "Boas-vindas" });
    // the OAuth token is fetched once and reused
    expect(fetchSpy.mock.calls.filter(([url]) => String(url).endsWith("/token"))).toHaveLength(1);
  });

  it("an end-of-conversation intent answers, then hands over and ends the session", async () => {
    const r = await engine.turn(config(), input("quero um atendente", { sessionId: "s-1" }));
    expect(r.messages).toEqual([{ kind: "text", body: "Certo! Vou chamar um atendente para continuar com você." }]);
    expect(r.actions).toEqual([{ type: "handover", reason: 'o DialogFlow encerrou a conversa (intenção "Atendente")' }]);
    expect(r.state).toBeNull();
  });

  it("the fallback intent answers; a message without text is not sent to the agent", async () => {
    expect((await engine.turn(config(), input("xyz"))).messages).toEqual([{ kind: "text", body: "Desculpe, não entendi. Pode repetir de outro jeito?" }]);
    const before = (await queries()).length;
    expect(await engine.turn(config(), input("", { sessionId: "s-2" }))).toEqual({ messages: [], actions: [], state: { sessionId: "s-2" } });
    expect((await queries()).length).toBe(before);
  });

  it("5xx from detectIntent is transient; a project the account cannot reach and bad credentials are final", async () => {
    await fetch(`${base}/api/control`, { method: "POST", body: JSON.stringify({ failNext: 1, failStatus: 503 }) });
    await expect(engine.turn(config(), input("oi"))).rejects.toBeInstanceOf(BotTransientError);
    const other = engine.turn(config({ projectName: "outro-projeto", jsonContent: account("agente-123").replace('"project_id":"agente-123"', '"project_id":"outro-projeto"') }), input("oi"));
    await expect(other).rejects.toThrow(/refused \(403\)/);
    await expect(engine.turn(config({ jsonContent: "{}" }), input("oi"))).rejects.toThrow(/not usable \(type\)/);
    const offline = createDialogflowEngine({ rest: createDialogflowRest({ tokenUrl: "http://127.0.0.1:9/token", apiBase: "http://127.0.0.1:9" }) });
    await expect(offline.turn(config(), input("oi"))).rejects.toBeInstanceOf(BotTransientError);
  });

  it("the token stand-in refuses a JWT whose claims are wrong (audience)", async () => {
    const wrongAud = createDialogflowRest({ tokenUrl: `${base}/token?x`, apiBase: base });
    const call = wrongAud.detectIntent({ credentials: JSON.parse(account("agente-123")), projectName: "agente-123", sessionId: "s", text: "oi", languageCode: "pt-BR" });
    await expect(call).rejects.toMatchObject({ kind: "rejected", step: "token" });
    await expect(call).rejects.toBeInstanceOf(DialogflowError);
  });
});
