import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { startPlatform } from "../infra/local/src/platform";
import { httpJson, poll } from "../e2e/support/http";
import { connectSimulator } from "../e2e/support/simulator";
import { promptChars, summaryMessages, type PromptLine } from "../functions/src/features/copilot/copilot-prompts";
import { percentile } from "./stats";
import { dynamoCounter } from "./inbox-meters";
import { loadavg } from "node:os";

/**
 * The attendants' copilot (issue 33 item 7) on the local platform, the provider played by the AI stand-in
 * (/simulator/ai, answering at once):
 * - overhead: POST /tickets/{id}/copilot/summary on a BENCH_COPILOT_MESSAGES-message conversation, minus the same
 *   request (the body the stand-in got) sent straight to the stand-in, paired per call: what the copilot adds beyond
 *   the provider's time (settings, visibility, quota, conversation reads, audit, usage count). Target p50 ≤ 50 ms.
 * - prompt size: the characters and the stand-in's token count of what the provider got for that conversation,
 *   against the characters of the whole conversation (it must stay bounded: older history goes as a digest); and
 *   the bound itself for 200 messages of 1,000 characters each (the prompt builder alone).
 */
const MESSAGES = Number(process.env.BENCH_COPILOT_MESSAGES ?? 200);
const CALLS = Number(process.env.BENCH_COPILOT_CALLS ?? 30);

type SimRequest = { endpoint: string; model: string; messages?: { role: string; content: string }[] };

export default async function bench(): Promise<Record<string, unknown>> {
  const platform = await startPlatform({ logLevel: "warn", tick: false });
  const counter = dynamoCounter(platform);
  try {
    const base = platform.url;
    const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
    const { token, companyId, whatsappId } = await connectSimulator(base, admin);
    const http = <T>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(base, path, { token, ...init });
    const saved = await http("/api/copilot/settings", {
      method: "PUT",
      body: { enabled: true, baseUrl: `${base}/simulator/ai/v1`, apiKey: "sk-bench-copilot-000000000000000001", model: "simulador", features: { summary: true, suggestions: true, rewrite: true, transcription: false } },
    });
    if (saved.status !== 200) throw new Error(`settings: ${saved.status} ${JSON.stringify(saved.data)}`);

    // one customer, MESSAGES messages of realistic length (~120 characters)
    const number = `5511977${String(Date.now()).slice(-6)}`;
    let written = 0;
    let last = "";
    for (let i = 0; i < MESSAGES; i++) {
      const body = `Mensagem ${i + 1} do cliente: preciso de ajuda com o pedido ${1000 + i}, que ainda não chegou e já passou do prazo combinado.`;
      written += body.length;
      last = body;
      await httpJson(base, `/simulator/api/customers/${number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: "Cliente Bench" } });
    }
    type Row = { id: number; lastMessage: string; contact: { number: string } };
    // every message stored (the simulator answers before the platform has them)
    const ticket = await poll(
      async () => ((await http<{ tickets: Row[] }>("/api/tickets?showAll=true&status=pending")).data.tickets ?? []).find((t) => t.contact.number === number),
      (t) => t?.lastMessage === last,
      120_000,
    );
    if (ticket?.lastMessage !== last) throw new Error("the conversation was not stored in time");
    const summary = () => http<{ summary: string }>(`/api/tickets/${ticket!.id}/copilot/summary`, { method: "POST", body: {} });
    for (let i = 0; i < 3; i++) await summary(); // warm-up (first reads, connections)

    const totalMs: number[] = [];
    const providerMs: number[] = [];
    const overheadMs: number[] = [];
    let sent: SimRequest | undefined;
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      const res = await summary();
      const t1 = performance.now();
      if (res.status !== 200) throw new Error(`summary: ${res.status} ${JSON.stringify(res.data)}`);
      sent = (await httpJson<SimRequest[]>(base, "/simulator/ai/requests")).data.filter((r) => r.endpoint === "chat").at(-1)!;
      const p0 = performance.now();
      await httpJson(base, "/simulator/ai/v1/chat/completions", { method: "POST", token: "sk-bench", body: { model: sent.model, messages: sent.messages, max_tokens: 300 } });
      const p1 = performance.now();
      totalMs.push(t1 - t0);
      providerMs.push(p1 - p0);
      overheadMs.push(t1 - t0 - (p1 - p0));
    }
    // the copilot's table work for one summary (exact, unlike the timings on a loaded machine)
    const tableWork = await counter.measure(summary);
    const promptCharsSent = (sent?.messages ?? []).reduce((n, m) => n + m.content.length, 0);

    // the builder's bound: 200 messages of 1,000 characters each
    const long: PromptLine[] = Array.from({ length: 200 }, (_, i) => ({ kind: i % 2 ? "agent" : "customer", text: `${i} `.padEnd(1000, "x"), createdAt: new Date(1_700_000_000_000 + i * 1000).toISOString() }));
    return {
      messages: MESSAGES,
      calls: CALLS,
      overheadP50Ms: percentile(overheadMs, 50),
      overheadP95Ms: percentile(overheadMs, 95),
      summaryP50Ms: percentile(totalMs, 50),
      providerP50Ms: percentile(providerMs, 50),
      loadAverage1m: Math.round(loadavg()[0]! * 10) / 10,
      oneSummary: { tableCalls: tableWork.calls, roundTripsInSequence: tableWork.roundTripsInSequence, itemsRead: tableWork.itemsRead, itemsWritten: tableWork.itemsWritten },
      conversationChars: written,
      promptCharsSent,
      promptTokensSent: Math.ceil(promptCharsSent / 4),
      promptMessagesSent: sent?.messages?.length ?? 0,
      bound200x1000Chars: { conversationChars: 200 * 1000, promptChars: promptChars(summaryMessages(long, "pt")) },
    };
  } finally {
    await platform.stop();
  }
}
