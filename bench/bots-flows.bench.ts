import { startPlatform } from "../infra/local/src/platform";
import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { connectSimulator } from "../e2e/support/simulator";
import { httpJson } from "../e2e/support/http";
import { percentile } from "./stats";

/**
 * Bot flows' answer latency on the local platform (issue 11 closing note, ADR 0027): customer message (simulator
 * send) → the bot's answer on the customer's phone (simulator chat), per kind, with the stand-ins answering at
 * once (Typebot delay between bubbles 0). A baseline without any bot (customer "oi" → the queue menu) shows what the
 * inbound path costs by itself. Each sample is one customer's message in a conversation the bot already runs.
 */
const SAMPLES = Number(process.env.BENCH_BOT_SAMPLES ?? 20);
const TIMEOUT_MS = 30_000;

export default async function botsFlowsBench(): Promise<Record<string, unknown>> {
  const platform = await startPlatform({ logLevel: "warn", env: { BCRYPT_ROUNDS: "4" }, tick: false });
  try {
    const base = platform.url;
    const network = platform.network;
    const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
    const login = await httpJson<{ token: string; user: { companyId: number } }>(base, "/api/auth/login", { method: "POST", body: { email: admin.email, password: admin.password } });
    const token = login.data.token;
    const companyId = login.data.user.companyId;
    const api = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
      const res = await httpJson<T>(base, `/api${path}`, { method, token, body });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.data)}`);
      return res.data;
    };

    const typebot = await api<{ id: number }>("POST", "/queueIntegration", {
      type: "typebot",
      name: "Bench Typebot",
      urlN8N: `${base}/simulator/typebot`,
      typebotSlug: "atende-demo",
      typebotDelayMessage: 0,
      typebotExpires: 60,
    });
    const webhook = await api<{ id: number; webhookSecret: string }>("POST", "/queueIntegration", { type: "webhook", name: "Bench webhook", urlN8N: `${base}/simulator/webhooks/in/bench` });
    await httpJson(base, "/simulator/webhooks/api/hooks/bench", { method: "PUT", body: { secret: webhook.webhookSecret, answer: { messages: [{ type: "text", body: "eco: {{message.body}}" }] } } });
    const { generateKeyPairSync } = await import("node:crypto");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
    const dialogflow = await api<{ id: number }>("POST", "/queueIntegration", {
      type: "dialogflow",
      name: "Bench DialogFlow",
      language: "pt-BR",
      projectName: "bench-agent",
      jsonContent: JSON.stringify({ type: "service_account", project_id: "bench-agent", client_email: "bot@bench-agent.iam.gserviceaccount.com", private_key: privateKey }),
    });
    const queue = (name: string, orderQueue: number, integrationId: number) =>
      api<{ id: number }>("POST", "/queue", { name, color: ["#2563eb", "#16a34a", "#dc2626"][orderQueue - 1], orderQueue, greetingMessage: `Fila ${name}`, integrationId });
    const queues = { typebot: await queue("Bench Typebot", 1, typebot.id), webhook: await queue("Bench Webhook", 2, webhook.id), dialogflow: await queue("Bench DialogFlow", 3, dialogflow.id) };
    await api("POST", "/whatsapp", { name: "Bench bots", greetingMessage: "Escolha:", queueIds: [queues.typebot.id, queues.webhook.id, queues.dialogflow.id] });
    const { whatsappId } = await connectSimulator(base, admin, "Bench bots");
    const ref = { companyId, whatsappId };

    /** Sends as the customer and resolves with the ms until a business message matching `expect` shows on the phone. */
    const timed = (number: string, body: string, expect: (text: string) => boolean) =>
      new Promise<number>((resolve, reject) => {
        const seen = new Set(network.chat(number, ref).messages.filter((m) => !m.fromCustomer).map((m) => m.id));
        let started = 0;
        const check = () => {
          if (!started) return;
          const hit = network.chat(number, ref).messages.some((m) => !m.fromCustomer && !seen.has(m.id) && expect(m.body));
          if (hit) {
            const ms = performance.now() - started;
            stop();
            resolve(ms);
          }
        };
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`no answer to "${body}" for ${number} within ${TIMEOUT_MS} ms`));
        }, TIMEOUT_MS);
        const unsubscribe = network.subscribe(check);
        const stop = () => {
          clearTimeout(timer);
          unsubscribe();
        };
        started = performance.now();
        network.customerSend(number, ref, { type: "text", body }).catch((err: unknown) => {
          stop();
          reject(err as Error);
        });
      });

    const kinds = {
      baseline: [] as number[],
      typebot: [] as number[],
      webhook: [] as number[],
      dialogflow: [] as number[],
    };
    const failures: string[] = [];
    const starts = { typebot: "qual é o seu nome?", webhook: "eco:", dialogflow: "Olá! Sou o agente" };
    let n = 0;
    for (let i = 0; i < SAMPLES; i++) {
      for (const [kind, option] of [["typebot", "1"], ["webhook", "2"], ["dialogflow", "3"]] as const) {
        const number = `55119${String(70000000 + ++n)}`;
        network.upsertCustomer(number, `Bench ${kind} ${i}`);
        try {
          // into the queue: the greeting and the menu (no bot yet: the baseline), then the choice
          kinds.baseline.push(await timed(number, "oi", (t) => t.includes("Escolha")));
          // the choice gets the queue's greeting; the next message starts the bot (the runner's rule)
          await timed(number, option, (t) => t.startsWith("Fila Bench"));
          await timed(number, "olá", (t) => t.includes(starts[kind]));
          if (kind === "typebot") kinds.typebot.push(await timed(number, "Maria", (t) => t.includes("Prazer, Maria")));
          if (kind === "webhook") kinds.webhook.push(await timed(number, `medida ${i}`, (t) => t === `eco: medida ${i}`));
          if (kind === "dialogflow") kinds.dialogflow.push(await timed(number, "qual o horário?", (t) => t.includes("das 8h às 18h")));
        } catch (err) {
          failures.push(`${kind} #${i}: ${(err as Error).message}`);
        }
        if (process.env.BENCH_VERBOSE) console.log(kind, i, kinds[kind].at(-1));
      }
    }
    const summary = (v: number[]) => ({ samples: v.length, p50Ms: percentile(v, 50, 0), p99Ms: percentile(v, 99, 0), maxMs: v.length ? Math.round(Math.max(...v)) : null });
    return {
      what: "customer message (simulator) → bot answer on the customer's phone, local platform in memory, stand-ins answering at once",
      baselineNoBot: summary(kinds.baseline),
      typebot: summary(kinds.typebot),
      webhook: summary(kinds.webhook),
      dialogflow: summary(kinds.dialogflow),
      failures,
    };
  } finally {
    await platform.stop();
  }
}
