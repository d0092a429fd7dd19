import WebSocket from "ws";
import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { startPlatform } from "../infra/local/src/platform";
import { httpJson, poll } from "../e2e/support/http";
import { connectSimulator } from "../e2e/support/simulator";
import { percentile } from "./stats";

/**
 * Bot answer latency on the local platform (issue 11 "closing note"): the demo company's queue Suporte gets an AI
 * prompt pointed at the AI simulator (/simulator/ai, which answers at once); BENCH_BOT_CUSTOMERS customers pick
 * Suporte, then each writes BENCH_BOT_MESSAGES messages, one after the bot's answer to the previous. We time the
 * simulator's send of the customer message to:
 * - the customer's own message reaching the admin's socket (`appMessage`, not ours): the inbox's share;
 * - the bot's answer reaching it (`appMessage` of ours quoting the message): what the customer waits for.
 * "added" = answer - message, per message: the bot's own share (jobs queue, lease, model call, store and send).
 */
const CUSTOMERS = Number(process.env.BENCH_BOT_CUSTOMERS ?? 10);
const MESSAGES = Number(process.env.BENCH_BOT_MESSAGES ?? 10);

export default async function bench(): Promise<Record<string, unknown>> {
  const platform = await startPlatform({ logLevel: "warn", tick: false });
  try {
    const base = platform.url;
    const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
    const session = await connectSimulator(base, admin);
    const { token, companyId, whatsappId } = session;
    const http = <T>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(base, path, { token, ...init });
    const queues = (await http<{ id: number; name: string }[]>("/api/queue")).data;
    const support = queues.find((q) => q.name === "Suporte")!;
    const prompt = await http<{ id: number }>("/api/prompt", {
      method: "POST",
      body: {
        name: "Bench",
        prompt: "Você é o assistente do benchmark.",
        apiKey: "sk-bench-000000000000000000000001",
        queueId: support.id,
        baseUrl: `${base}/simulator/ai/v1`,
        model: "simulador",
        maxMessages: 10,
      },
    });
    if (prompt.status !== 200) throw new Error(`prompt: ${prompt.status} ${JSON.stringify(prompt.data)}`);
    await http(`/api/queue/${support.id}`, { method: "PUT", body: { promptId: prompt.data.id } });

    const messageAt = new Map<string, number>();
    const sentAt = new Map<string, number>();
    const inboxMs: number[] = [];
    const answerMs: number[] = [];
    const addedMs: number[] = [];
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`);
    await new Promise<void>((res, rej) => {
      ws.once("open", () => res());
      ws.once("error", rej);
    });
    ws.on("message", (raw) => {
      const frame = JSON.parse(String(raw)) as { event: string; data: { action?: string; message?: { body: string; fromMe: boolean } } };
      if (frame.event !== "appMessage" || frame.data.action !== "create" || !frame.data.message) return;
      const { body, fromMe } = frame.data.message;
      const now = performance.now();
      if (!fromMe && sentAt.has(body)) {
        messageAt.set(body, now);
        inboxMs.push(now - sentAt.get(body)!);
        return;
      }
      const quoted = fromMe ? /^Você disse: "(.*)"$/s.exec(body)?.[1] : undefined;
      if (quoted === undefined || !sentAt.has(quoted)) return;
      answerMs.push(now - sentAt.get(quoted)!);
      if (messageAt.has(quoted)) addedMs.push(now - messageAt.get(quoted)!);
      sentAt.delete(quoted);
    });

    const tag = Date.now().toString(36);
    const numberOf = (i: number) => `55119${String(41000000 + i)}`;
    const say = (i: number, body: string) =>
      httpJson(base, `/simulator/api/customers/${numberOf(i)}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: `Bot bench ${i}` } });
    const chat = async (i: number) =>
      (await httpJson<{ messages: { fromCustomer: boolean; body: string }[] }>(base, `/simulator/api/customers/${numberOf(i)}/messages?companyId=${companyId}&whatsappId=${whatsappId}`)).data
        .messages ?? [];

    // every customer picks Suporte (menu option 2) first
    await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, i) => {
        await say(i, "oi");
        await poll(() => chat(i), (m) => m.some((e) => !e.fromCustomer && e.body.includes("Suporte")), 60_000);
        await say(i, "2");
        await poll(() => chat(i), (m) => m.some((e) => !e.fromCustomer && e.body.includes("Descreva o seu problema")), 60_000);
      }),
    );
    const started = performance.now();
    let unanswered = 0;
    await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, i) => {
        for (let k = 0; k < MESSAGES; k++) {
          const body = `pergunta ${tag} ${i} ${k}`;
          sentAt.set(body, performance.now());
          await say(i, body);
          const ok = await poll(async () => !sentAt.has(body), (done) => done, 30_000).catch(() => false);
          if (!ok) unanswered++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    ws.close();
    return {
      customers: CUSTOMERS,
      messagesPerCustomer: MESSAGES,
      answered: answerMs.length,
      unanswered,
      seconds: Math.round(seconds * 10) / 10,
      prompt: {
        messageToAnswerMsP50: percentile(answerMs, 50),
        messageToAnswerMsP99: percentile(answerMs, 99),
        inboxOnlyMsP50: percentile(inboxMs, 50),
        inboxOnlyMsP99: percentile(inboxMs, 99),
        addedByBotMsP50: percentile(addedMs, 50),
        addedByBotMsP99: percentile(addedMs, 99),
      },
    };
  } finally {
    await platform.stop();
  }
}
