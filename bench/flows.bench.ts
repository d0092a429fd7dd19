import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { randomBytes } from "node:crypto";
import { createTableInput } from "@atende/shared/table/table-definition";
import type { FlowInput } from "@atende/shared/domain/flows/flow";
import { parseConfig } from "@atende/functions/platform/config";
import { createContainer } from "@atende/functions/app/container";
import { createHttpApp } from "@atende/functions/app/http-app";
import { consumeJobs } from "@atende/functions/app/jobs-consumer";
import { createLogger } from "@atende/functions/platform/logger";
import { createMemoryCommandQueue } from "@atende/functions/platform/queues/sqs-commands.adapter";
import { createMemoryJobQueue } from "@atende/functions/platform/queues/sqs-jobs.adapter";
import { createMemorySender } from "@atende/functions/platform/realtime/memory-sender.adapter";
import { createMemoryMailer } from "@atende/functions/platform/mail/memory-mail.adapter";
import { BOT_TURN_JOB } from "@atende/functions/features/bots/bot-runner.service";
import { createTenant, type Tenant } from "@atende/functions/testing/factories";
import { customerMessage, deliver } from "@atende/functions/testing/inbox-fixtures";
import type { TestApp } from "@atende/functions/testing/test-app";
import { startDynamo } from "../infra/local/src/dynamo";
import { freePort } from "../infra/local/src/ports";
import { percentile } from "./stats";
import { flowSchema } from "@atende/shared/domain/flows/flow";
import { runFlow, type FlowDeps, type FlowState } from "@atende/functions/features/flows/flow-engine";

/**
 * Flows (issue 30 item 6), in one process against DynamoDB Local (the real container, in-memory queues, no outside
 * calls: the flow has no http or ai node):
 * 1. per step: a customer message on a plain ticket (automation done, no bot) vs the same on a ticket in a flow, one
 *    of each in turn after 30 unmeasured of each (so neither path runs colder or on a busier second than the other) —
 *    the inbound path, then the flow's turn (the bots.turn job: lease, version from memory, interpreter, counters,
 *    send, state). "added" = inbound with flow + turn - plain inbound p50;
 * 2. table calls per step (inbound and turn), counted on the DynamoDB client;
 * 3. BENCH_FLOW_CONVERSATIONS (200) conversations in the flow at once, three steps each: none may be stuck.
 */
/** The item a call touched, by its key's entity part (`CO#2|TICKET#…` → `TICKET`), for the trace of one turn. */
const itemOf = (input: Record<string, unknown>): string => {
  const entity = (k: unknown) => {
    const { pk, sk } = (k ?? {}) as { pk?: string; sk?: string };
    return `${String(pk ?? "").replace(/^CO#\d+#?/, "").replace(/#?[0-9A-F]{6,}|\d{4,}/g, "") || "CO"}/${String(sk ?? "").replace(/#.*$/, "")}`;
  };
  if (input.Key) return entity(input.Key);
  if (input.TransactItems) return (input.TransactItems as Record<string, { Key?: unknown; Item?: unknown }>[]).map((t) => { const x = Object.values(t)[0]!; return entity(x.Key ?? x.Item); }).join(" + ");
  if (input.RequestItems) return `${Object.values(input.RequestItems as Record<string, unknown[]>).reduce((n, v) => n + (Array.isArray(v) ? v.length : ((v as { Keys?: unknown[] }).Keys?.length ?? 0)), 0)} items`;
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  return values?.[":pk"] ? entity({ pk: values[":pk"] }) : "";
};

const STEPS = Number(process.env.BENCH_FLOW_STEPS ?? 200);
const CONVERSATIONS = Number(process.env.BENCH_FLOW_CONVERSATIONS ?? 200);

/** start → menu (a: a message and back to the menu; b: a question and back to the menu) */
const loopFlow: FlowInput = {
  name: "Bench",
  exitWords: [],
  nodes: [
    { id: "start", type: "start", data: {} },
    { id: "menu", type: "menu", data: { text: "Escolha {{contact.name}}", options: [{ id: "a", label: "Mensagem" }, { id: "b", label: "Pergunta" }] } },
    { id: "msg", type: "message", data: { text: "Você escolheu a mensagem, {{vars.answer}}" } },
    { id: "ask", type: "question", data: { text: "Diga algo", saveAs: "vars.answer" } },
    { id: "cond", type: "condition", data: { rules: [{ left: "{{vars.answer}}", op: "notEmpty" }] } },
  ],
  edges: [
    { source: "start", target: "menu" },
    { source: "menu", target: "msg", sourceHandle: "a" },
    { source: "menu", target: "ask", sourceHandle: "b" },
    { source: "msg", target: "menu" },
    { source: "ask", target: "cond" },
    { source: "cond", target: "menu", sourceHandle: "true" },
    { source: "cond", target: "menu", sourceHandle: "false" },
  ],
};

/** The interpreter alone (no table, no send): what a step costs the engine's own code, in microseconds. */
const interpreterMicros = async () => {
  const flow = flowSchema.parse(loopFlow);
  const deps: FlowDeps = { http: async () => ({ status: 200, json: {} }), ai: async () => ({ messages: [], outcome: "done" }), inBusinessHours: async () => true, media: async () => ({ kind: "text", body: "" }), now: () => new Date() };
  const ctx = { flow, flowId: 1, version: 1, channel: "cloudapi" as const, contact: { name: "Ana", number: "5511", email: "", extra: {} }, protocol: "1" };
  let state: FlowState = (await runFlow(ctx, null, { kind: "start" }, deps)).state;
  const us: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const started = performance.now();
    state = (await runFlow(ctx, state, { kind: "message", text: ["1", "2", "algo"][i % 3]! }, deps)).state;
    us.push((performance.now() - started) * 1000);
  }
  return { steps: us.length, usP50: Math.round(percentile(us, 50)! * 10) / 10, usP99: Math.round(percentile(us, 99)! * 10) / 10 };
};

export default async function bench(): Promise<Record<string, unknown>> {
  const interpreter = await interpreterMicros();
  const port = await freePort();
  const dynamo = await startDynamo({ port });
  try {
    const tableName = `bench_${randomBytes(4).toString("hex")}`;
    const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    client.destroy();
    const jobs = createMemoryJobQueue();
    const commands = createMemoryCommandQueue();
    // when each send command left (the customer's reply is on its way to WhatsApp from then on)
    let lastSendAt = 0;
    const queueSend = commands.send.bind(commands);
    commands.send = async (c) => {
      await queueSend(c);
      if (c.type === "send" && lastSendAt === 0) lastSendAt = performance.now();
    };
    const clock = { now: new Date(), advance(ms: number) { this.now = new Date(this.now.getTime() + ms); }, set(d: Date | string) { this.now = new Date(d); } };
    const config = parseConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: dynamo.endpoint, JWT_SECRET: randomBytes(32).toString("hex"), JWT_REFRESH_SECRET: randomBytes(32).toString("hex"), BCRYPT_ROUNDS: "4", COOKIE_SECURE: "false", LOG_LEVEL: "silent", OUTBOUND_GUARD: "off" });
    const container = createContainer(config, { sender: createMemorySender(), commands, jobs, mailer: createMemoryMailer(), clock: () => clock.now, logger: createLogger("silent") });
    const app = createHttpApp(container);
    const call = async (method: string, path: string, opts: { token?: string; body?: unknown; address?: string } = {}) => {
      const res = await app.request(`/api${path}`, { method, headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(opts.body !== undefined ? { "content-type": "application/json" } : {}) }, body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined }, { incoming: { socket: { remoteAddress: opts.address ?? "127.0.0.1" } } });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    };
    const t = { container, app, call, jobs, commands, clock } as unknown as TestApp;

    let counting: { ops: number; names: string[]; items: string[] } | null = null;
    container.db.doc.observe(({ operation, input }) => {
      if (counting) {
        counting.ops++;
        counting.names.push(operation);
        counting.items.push(`${operation} ${itemOf(input)}`);
      }
      return undefined;
    });
    const measure = async <T>(fn: () => Promise<T>) => {
      const c = { ops: 0, names: [] as string[], items: [] as string[] };
      counting = c;
      const started = performance.now();
      await fn();
      const ms = performance.now() - started;
      counting = null;
      return { ms, ops: c.ops, names: c.names, items: c.items };
    };
    const runTurns = async () => {
      for (;;) {
        const batch = jobs.pending.filter((p) => p.job.type === "feature" && p.job.name === BOT_TURN_JOB);
        if (!batch.length) return;
        jobs.pending.splice(0, jobs.pending.length, ...jobs.pending.filter((p) => !batch.includes(p)));
        // as the jobs Lambda runs them: one SQS batch, each job its own unit of work (jobs-consumer.ts)
        const out = await consumeJobs(container, {
          Records: batch.map((p, i) => ({ messageId: `j-${seq}-${i}`, receiptHandle: "r", body: JSON.stringify(p.job), attributes: {} as never, messageAttributes: {}, md5OfBody: "", eventSource: "aws:sqs", eventSourceARN: "arn", awsRegion: "us-east-1" })),
        });
        if (out.batchItemFailures.length) throw new Error(`bot turns failed: ${JSON.stringify(out.batchItemFailures)}`);
      }
    };
    let seq = 0;
    const say = (tenant: Tenant, number: string, body: string) => {
      clock.advance(1000);
      return deliver(t, customerMessage(tenant, { number, body, pushName: "Bench", extra: { timestamp: Math.floor(clock.now.getTime() / 1000) + seq++ } }));
    };

    // 1. the plain inbound path: a company without queues (automation greets once, then is done) and no bot
    const plain = await createTenant(t, { queues: [] });
    const plainMs: number[] = [];
    const plainOps: number[] = [];
    await say(plain, "5511900000001", "oi");

    // the same messages on a ticket in the flow
    const flowed = await createTenant(t);
    const made = await call("POST", "/flows", { token: flowed.adminToken, body: loopFlow });
    const id = made.body.id as number;
    await call("POST", `/flows/${id}/publish`, { token: flowed.adminToken });
    const wa = (await call("GET", `/whatsapp/${flowed.whatsapp.id}`, { token: flowed.adminToken })).body;
    const set = await call("PUT", `/whatsapp/${flowed.whatsapp.id}`, { token: flowed.adminToken, body: { ...wa, flowId: id } });
    if (set.status !== 200) throw new Error(`flowId: ${set.status} ${JSON.stringify(set.body)}`);
    await say(flowed, "5511900000002", "oi");
    await runTurns();
    const inboundMs: number[] = [];
    const inboundOps: number[] = [];
    const turnMs: number[] = [];
    const turnOps: number[] = [];
    /** from the customer's message entering the inbound path to the flow's first reply leaving (its send command) */
    const replyMs: number[] = [];
    let lastTurnCalls: Record<string, number> = {};
    let lastMenuTurn: string[] = [];
    const answers = ["1", "2", "qualquer coisa"];
    // warmed alike, then one plain step and one flow step in turn: both paths measured under the same conditions
    const WARM = 30;
    for (let i = -WARM; i < STEPS; i++) {
      const p = await measure(() => say(plain, "5511900000001", `mensagem ${i}`));
      const body = answers[(i + WARM) % 3]!;
      const stepStarted = performance.now();
      lastSendAt = 0;
      const m = await measure(() => say(flowed, "5511900000002", body));
      const turn = await measure(runTurns);
      if (i < 0) continue;
      replyMs.push(lastSendAt - stepStarted);
      plainMs.push(p.ms);
      plainOps.push(p.ops);
      inboundMs.push(m.ms);
      inboundOps.push(m.ops);
      turnMs.push(turn.ms);
      turnOps.push(turn.ops);
      if (body === "1") lastMenuTurn = turn.items;
      if (process.env.BENCH_FLOW_TRACE) console.log(body, turn.items);
      lastTurnCalls = turn.names.reduce<Record<string, number>>((o, n) => ({ ...o, [n]: (o[n] ?? 0) + 1 }), {});
    }
    const plainP50 = percentile(plainMs, 50) ?? 0;
    const added = inboundMs.map((ms, i) => ms + turnMs[i]! - plainP50);

    // 3. many conversations at once: each starts the flow, then answers 1 (message), 2 (question), then says something
    const crowd = await createTenant(t, { queues: [] });
    const crowdFlow = (await call("POST", "/flows", { token: crowd.adminToken, body: loopFlow })).body.id as number;
    await call("POST", `/flows/${crowdFlow}/publish`, { token: crowd.adminToken });
    const cwa = (await call("GET", `/whatsapp/${crowd.whatsapp.id}`, { token: crowd.adminToken })).body;
    await call("PUT", `/whatsapp/${crowd.whatsapp.id}`, { token: crowd.adminToken, body: { ...cwa, flowId: crowdFlow } });
    const numbers = Array.from({ length: CONVERSATIONS }, (_, i) => `55119${String(60000000 + i)}`);
    const started = performance.now();
    for (const body of ["oi", "1", "2", "pronto"]) {
      await Promise.all(numbers.map((n) => say(crowd, n, body)));
      await runTurns();
    }
    const crowdSeconds = (performance.now() - started) / 1000;
    // every conversation: menu, message + menu, question, menu again = 5 sends; then waiting at the menu
    const sends = new Map<string, number>();
    for (const c of commands.sent) if (c.companyId === crowd.company.id && c.type === "send" && "chatJid" in c) sends.set(c.chatJid, (sends.get(c.chatJid) ?? 0) + 1);
    const stuck = numbers.filter((n) => sends.get(`${n}@s.whatsapp.net`) !== 5).length;
    const stats = (await call("GET", `/flows/${crowdFlow}/stats`, { token: crowd.adminToken })).body as { started: number; nodes: Record<string, { entered: number }> };

    return {
      interpreter,
      steps: STEPS,
      plainInbound: { msP50: plainP50, msP99: percentile(plainMs, 99), tableCallsP50: percentile(plainOps, 50) },
      inboundWithFlow: { msP50: percentile(inboundMs, 50), msP99: percentile(inboundMs, 99), tableCallsP50: percentile(inboundOps, 50) },
      flowTurn: { msP50: percentile(turnMs, 50), msP99: percentile(turnMs, 99), tableCallsP50: percentile(turnOps, 50), tableCallsMax: Math.max(...turnOps), oneTurnByOperation: lastTurnCalls, menuTurnCalls: lastMenuTurn },
      addedPerStep: { msP50: percentile(added, 50), msP99: percentile(added, 99), targetMsP50: 30 },
      // the customer's view: message in → first reply out (the turn's later writes — the second reply, the lease, the
      // search index — happen after it); beside it the plain path's whole p50, which sends nothing
      messageToFirstReply: { msP50: percentile(replyMs, 50), msP99: percentile(replyMs, 99) },
      concurrent: { conversations: CONVERSATIONS, stepsEach: 4, seconds: Math.round(crowdSeconds * 10) / 10, stuck, started: stats.started, menuEntered: stats.nodes.menu?.entered ?? 0 },
    };
  } finally {
    await dynamo.stop();
  }
}
