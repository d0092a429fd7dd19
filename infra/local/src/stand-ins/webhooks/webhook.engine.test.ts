import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_SIGNATURE_HEADER, type WebhookPayload } from "@atende/shared/domain/bots/webhook-bot";
import { serveHttp } from "@atende/functions/testing/serve-http";
import { BotTransientError, type BotTurnInput } from "@atende/functions/features/bots/bot-engine.port";
import { createWebhookReceiverSimulatorHttp, type WebhookDelivery } from "./webhook-receiver-simulator.http";
import { createWebhookEngine, type WebhookConfig } from "@atende/functions/features/bots/engines/webhook.engine";
import { generateWebhookSecret, signWebhookBody, verifyWebhookSignature } from "@atende/functions/features/bots/engines/webhook-signature";

/** The n8n/webhook engine against the webhook receiver stand-in over real HTTP. */
let stub: Awaited<ReturnType<typeof serveHttp>>;
let base: string;
beforeAll(async () => {
  stub = await serveHttp(createWebhookReceiverSimulatorHttp().fetch);
  base = `${stub.url}/simulator/webhooks`;
});
afterAll(() => stub.close());

const secret = generateWebhookSecret();
const setHook = (hook: string, body: { secret?: string; answer?: unknown; status?: number }) =>
  fetch(`${base}/api/hooks/${hook}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const deliveries = async (hook: string) => (await (await fetch(`${base}/api/deliveries?hook=${hook}`)).json()) as WebhookDelivery[];
const config = (hook: string, over: Partial<WebhookConfig> = {}): WebhookConfig => ({ id: 9, name: "Fluxo n8n", type: "n8n", urlN8N: `${base}/in/${hook}`, secret, ...over });
const input = (over: Partial<BotTurnInput> = {}): BotTurnInput => ({
  company: { id: 1, name: "Padaria Pão Quente" },
  connection: { id: 2, name: "WhatsApp Loja" },
  queue: { id: 3, name: "Suporte" },
  ticket: { id: 40, uuid: "7b0f6a4e-0000-4000-8000-000000000040", queueId: 3 },
  contact: { id: 5, name: "Maria Souza", number: "5511999990001", email: "maria@exemplo.com.br" },
  message: { id: "3EB0ABCDEF", body: "Quero falar com o financeiro", createdAt: "2026-11-24T10:00:00.000Z" },
  history: [],
  state: null,
  now: new Date("2026-11-24T10:00:01Z"),
  signal: AbortSignal.timeout(5000),
  ...over,
});
const engine = createWebhookEngine("n8n");

describe("webhook signature", () => {
  it("is HMAC-SHA256 over the raw body, hex, prefixed sha256=; a changed body or secret does not verify", () => {
    const s = generateWebhookSecret();
    expect(s).toMatch(/^whsec_[\w-]{43}$/);
    expect(generateWebhookSecret()).not.toBe(s);
    const body = '{"a":1}';
    const sig = signWebhookBody("k", body);
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature("k", body, sig)).toBe(true);
    expect(verifyWebhookSignature("k", '{"a":2}', sig)).toBe(false);
    expect(verifyWebhookSignature("other", body, sig)).toBe(false);
    expect(verifyWebhookSignature("k", body, null)).toBe(false);
    // a known vector (RFC 4231 test case 2)
    expect(signWebhookBody("Jefe", "what do ya want for nothing?")).toBe("sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  });
});

describe("webhook engine (against the receiver stand-in)", () => {
  it("POSTs the signed JSON payload (ticket, contact, message, connection, company) and the receiver verifies it", async () => {
    await setHook("payload", { secret, answer: {} });
    const r = await engine.turn(config("payload"), input());
    expect(r).toEqual({ messages: [], actions: [], state: null });
    const [d] = await deliveries("payload");
    expect(d?.verified).toBe(true);
    expect(d?.deliveryId).toBe("9-3EB0ABCDEF");
    expect(verifyWebhookSignature(secret, d!.raw, d!.signature)).toBe(true);
    const body = d!.body as WebhookPayload;
    expect(body).toEqual({
      version: 1,
      event: "message",
      deliveryId: "9-3EB0ABCDEF",
      sentAt: "2026-11-24T10:00:01.000Z",
      integration: { id: 9, name: "Fluxo n8n", type: "n8n" },
      company: { id: 1, name: "Padaria Pão Quente" },
      connection: { id: 2, name: "WhatsApp Loja" },
      queue: { id: 3, name: "Suporte" },
      ticket: { id: 40, uuid: "7b0f6a4e-0000-4000-8000-000000000040", queueId: 3 },
      contact: { id: 5, name: "Maria Souza", number: "5511999990001", email: "maria@exemplo.com.br" },
      message: { id: "3EB0ABCDEF", body: "Quero falar com o financeiro", mediaType: null, mediaUrl: null, transcript: null, createdAt: "2026-11-24T10:00:00.000Z" },
      state: null,
    });
  });

  it("turns the answer's messages, actions and state into the turn's result", async () => {
    await setHook("answer", {
      secret,
      answer: {
        messages: [
          { type: "text", body: "Oi {{contact.name}}, vou te passar para o financeiro." },
          { type: "image", url: "https://cdn.exemplo.com.br/boleto.png", caption: "Seu boleto" },
        ],
        actions: [{ type: "transferQueue", queueId: 7 }, { type: "addTag", tag: "financeiro" }, { type: "handover", note: "Cliente pediu o financeiro" }],
        state: { step: 2 },
        delayMs: 500,
      },
    });
    const r = await engine.turn(config("answer"), input({ state: { step: 1 } }));
    expect(r.messages).toEqual([
      { kind: "text", body: "Oi Maria Souza, vou te passar para o financeiro." },
      { kind: "media", mediaType: "image", url: "https://cdn.exemplo.com.br/boleto.png", caption: "Seu boleto" },
    ]);
    expect(r.actions).toEqual([
      { type: "transferQueue", queueId: 7 },
      { type: "addTag", tag: "financeiro" },
      { type: "handover", reason: "o n8n pediu um atendente", note: "Cliente pediu o financeiro" },
    ]);
    expect(r.state).toEqual({ step: 2 });
    expect(r.delayMs).toBe(500);
    expect(((await deliveries("answer"))[0]!.body as WebhookPayload).state).toEqual({ step: 1 });
  });

  it("an answer without state keeps the ticket's state; n8n's one-item array is read; close and transferUser pass", async () => {
    await setHook("array", { secret, answer: [{ actions: [{ type: "transferUser", userId: 4 }, { type: "close" }] }] });
    const r = await engine.turn(config("array"), input({ state: { keep: true } }));
    expect(r).toEqual({ messages: [], actions: [{ type: "transferUser", userId: 4 }, { type: "close" }], state: { keep: true } });
  });

  it("a wrong secret is refused by the receiver (401): a final error, not retried", async () => {
    await setHook("wrong", { secret: generateWebhookSecret(), answer: {} });
    const call = engine.turn(config("wrong"), input());
    await expect(call).rejects.toThrow(/n8n refused the call \(401\)/);
    await expect(engine.turn(config("wrong"), input())).rejects.not.toBeInstanceOf(BotTransientError);
    expect((await deliveries("wrong"))[0]?.verified).toBe(false);
  });

  it("an answer outside the contract is a final error that says where", async () => {
    await setHook("bad", { secret, answer: { actions: [{ type: "transferQueue", queueId: "sete" }] } });
    await expect(engine.turn(config("bad"), input())).rejects.toThrow(/does not follow the contract \(actions\.0\.queueId/);
    await setHook("fat", { secret, answer: { state: { blob: "x".repeat(5000) } } });
    await expect(engine.turn(config("fat"), input())).rejects.toThrow(/state is over 4096 bytes/);
  });

  it("5xx and an unreachable endpoint are transient", async () => {
    await setHook("down", { secret, status: 502 });
    await expect(engine.turn(config("down"), input())).rejects.toBeInstanceOf(BotTransientError);
    await expect(engine.turn(config("x", { urlN8N: "http://127.0.0.1:9/hook" }), input())).rejects.toBeInstanceOf(BotTransientError);
  });

  it("the webhook kind labels itself; the signature header is the documented one", async () => {
    await setHook("plain", { secret, answer: { messages: [{ type: "text", body: "ok" }] } });
    const webhook = createWebhookEngine("webhook");
    expect(webhook.kind).toBe("webhook");
    const r = await webhook.turn(config("plain", { type: "webhook" }), input());
    expect(r.messages).toEqual([{ kind: "text", body: "ok" }]);
    expect((await deliveries("plain"))[0]?.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(WEBHOOK_SIGNATURE_HEADER).toBe("x-atende-signature");
  });
});

describe("webhook engine and the public URL guard", () => {
  it("refuses to call a private address when the guard says so, without sending anything (final)", async () => {
    const { createPublicUrlGuard } = await import("@atende/functions/platform/net/public-url-guard");
    const guarded = createWebhookEngine("webhook", { guard: createPublicUrlGuard({ allowPrivate: false }) });
    await setHook("guarded", { secret, answer: { messages: [{ type: "text", body: "não deveria" }] } });
    await expect(guarded.turn(config("guarded"), input())).rejects.toThrow(/not a public address/);
    await expect(guarded.turn(config("guarded"), input())).rejects.not.toBeInstanceOf(BotTransientError);
    expect(await deliveries("guarded")).toEqual([]);
  });
});
