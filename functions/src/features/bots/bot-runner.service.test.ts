import { describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import { createMemoryJobQueue } from "../../platform/queues/sqs-jobs.adapter";
import { createLogger } from "../../platform/logger";
import { createMemoryMetrics, type Metrics } from "../../platform/metrics";
import { BotTransientError, type BotEngine, type BotOutMessage, type BotTurnInput, type BotTurnResult } from "./bot-engine.port";
import type { BotBinding, BotInbox, BotStoredMessage, BotTicket } from "./bot-inbox.port";
import { BOT_TURN_JOB, createBotRunner } from "./bot-runner.service";
import { createMemoryBotTurnStore } from "./bot-turns.repository";
import { createMemoryBotUsageStore, usageMonth } from "./bot-usage.repository";

const COMPANY = 7;
const ticketOf = (job: JobMessage) => (job.type === "feature" ? Number(job.payload.ticketId) : 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An inbox in memory: tickets, their messages, and what the runner did to them. */
const fakeInbox = () => {
  const tickets = new Map<number, BotTicket>();
  const messages = new Map<number, BotStoredMessage[]>();
  const sent: { ticketId: number; message: BotOutMessage; key: string }[] = [];
  const notes: { ticketId: number; note: string }[] = [];
  const applied: { ticketId: number; action: unknown }[] = [];
  const transcripts = new Map<string, string>();
  let seq = 0;
  const inbox: BotInbox = {
    async ticket(_c, id) {
      const t = tickets.get(id);
      return t ? { ...t } : null;
    },
    async context(t) {
      return { company: { id: COMPANY, name: "Padaria Pão Quente" }, connection: { id: 1, name: "Loja" }, queue: t.queueId ? { id: t.queueId, name: "Suporte" } : null, contact: { id: t.contactId, name: "Maria Souza", number: "5511999990000" } };
    },
    async message(_c, ticketId, id) {
      return messages.get(ticketId)?.find((m) => m.id === id) ?? null;
    },
    async history(_c, ticketId, upTo, limit, waiting = []) {
      return (messages.get(ticketId) ?? [])
        .filter((m) => m.fromMe || (m.createdAt <= upTo.createdAt && !waiting.includes(m.id)))
        .slice(-limit)
        .map((m) => ({ fromMe: m.fromMe, body: m.transcript ?? m.body, mediaType: m.mediaType, createdAt: m.createdAt }));
    },
    async readMedia() {
      return new Uint8Array([1, 2, 3]);
    },
    async saveTranscript(_c, _t, id, text) {
      transcripts.set(id, text);
    },
    async send(t, message, key, opts) {
      if (sent.some((s) => s.key === key)) return;
      // as the inbox's write does: checked on the ticket as it is now, not as the runner read it
      if (opts?.onlyIf && !opts.onlyIf({ ...tickets.get(t.id)! })) return false;
      sent.push({ ticketId: t.id, message, key });
      const body = message.kind === "text" ? message.body : "";
      messages.get(t.id)!.push({ id: `ours-${++seq}`, ticketId: t.id, fromMe: true, body, mediaType: "chat", mediaUrl: null, mediaKey: null, mediaMimetype: null, transcript: null, createdAt: new Date().toISOString() });
    },
    async handover(t, note) {
      notes.push({ ticketId: t.id, note });
    },
    async apply(t, action) {
      if (action.type === "transferQueue" && action.queueId === 404) throw Object.assign(new Error("no queue"), { code: "ERR_NO_QUEUE_FOUND" });
      applied.push({ ticketId: t.id, action });
      if (action.type === "transferQueue") tickets.get(t.id)!.queueId = action.queueId;
    },
  };
  const addTicket = (id: number, over: Partial<BotTicket> = {}) => {
    tickets.set(id, { id, uuid: `u-${id}`, companyId: COMPANY, status: "pending", userId: null, queueId: 3, whatsappId: 1, contactId: 100 + id, isGroup: false, ...over });
    messages.set(id, []);
    return tickets.get(id)!;
  };
  const customerSays = (ticketId: number, body: string, over: Partial<BotStoredMessage> = {}) => {
    const m: BotStoredMessage = { id: `m-${++seq}`, ticketId, fromMe: false, body, mediaType: "chat", mediaUrl: null, mediaKey: null, mediaMimetype: null, transcript: null, createdAt: new Date(Date.now() + seq).toISOString(), ...over };
    messages.get(ticketId)!.push(m);
    return m;
  };
  return { inbox, tickets, messages, sent, notes, applied, transcripts, addTicket, customerSays };
};

type Turn = (input: BotTurnInput) => Promise<BotTurnResult>;
const engineOf = (fn: Turn, extra: Partial<BotEngine<unknown>> = {}): BotEngine<unknown> & { calls: BotTurnInput[] } => {
  const calls: BotTurnInput[] = [];
  return {
    kind: "prompt",
    calls,
    handoverKeywords: () => ["atendente", "humano"],
    async turn(_cfg, input) {
      calls.push(input);
      return fn(input);
    },
    ...extra,
  };
};
const echo: Turn = async (input) => ({ messages: [{ kind: "text", body: `eco: ${input.message.body}` }], actions: [], state: { n: Number(input.state?.n ?? 0) + 1 }, usage: { promptTokens: 10, completionTokens: 5 } });

const setup = (engine: BotEngine<unknown>, opts: { binding?: Partial<BotBinding>; timeoutMs?: number; metrics?: Metrics } = {}) => {
  const fake = fakeInbox();
  const jobs = createMemoryJobQueue();
  const turns = createMemoryBotTurnStore();
  const usage = createMemoryBotUsageStore();
  const runner = createBotRunner({
    engines: { prompt: engine },
    resolver: { resolve: async (t) => (t.queueId === 3 || t.queueId === 5 ? { kind: "prompt", id: t.queueId === 3 ? 11 : 12, config: { q: t.queueId }, historyLimit: 10, ...opts.binding } : null) },
    inbox: fake.inbox,
    turns,
    usage,
    jobs,
    clock: () => new Date(),
    logger: createLogger("silent"),
    timeoutMs: opts.timeoutMs ?? 1000,
    sleep: async () => undefined,
    metrics: opts.metrics,
  });
  /** what the inbound flow does: the message is stored, then queued for its turn */
  const arrive = async (ticketId: number, body: string, over: Partial<BotStoredMessage> = {}) => {
    const m = fake.customerSays(ticketId, body, over);
    return { m, queued: await runner.onCustomerMessage((await fake.inbox.ticket(COMPANY, ticketId))!, m) };
  };
  /** the jobs consumer: runs every queued job (and those they queue) */
  const drain = async () => {
    while (jobs.pending.length) {
      const batch = jobs.pending.splice(0);
      await Promise.all(batch.map(({ job }) => (job.type === "feature" && job.name === BOT_TURN_JOB ? runner.runTicket(job.companyId, Number(job.payload.ticketId)) : undefined)));
    }
  };
  return { ...fake, jobs, turns, usage, runner, arrive, drain };
};
const texts = (sent: { message: BotOutMessage }[]) => sent.map((s) => (s.message.kind === "text" ? s.message.body : s.message.kind));

describe("bot runner metrics", () => {
  it("counts a turn that answered as a bot answer by kind, and each handover by its reason", async () => {
    const recorded = createMemoryMetrics();
    const s = setup(engineOf(async (input) => (input.message.body === "cala" ? { messages: [], actions: [], state: null } : echo(input))), { metrics: recorded.metrics });
    s.addTicket(1);
    s.addTicket(2);
    s.addTicket(3);
    await s.arrive(1, "oi");
    await s.arrive(1, "tudo bem?");
    await s.drain();
    await s.arrive(2, "quero falar com um atendente");
    await s.drain();
    await s.arrive(3, "cala");
    await s.drain();
    expect(recorded.points.filter((p) => p.name === "BotAnswers")).toEqual([
      { name: "BotAnswers", value: 1, unit: "count", dimensions: { kind: "prompt" } },
      { name: "BotAnswers", value: 1, unit: "count", dimensions: { kind: "prompt" } },
    ]);
    expect(recorded.points.filter((p) => p.name === "Handovers").map((p) => p.dimensions.reason)).toEqual(["keyword", "silent"]);
  });
});

describe("bot runner", () => {
  it("answers each customer message once, in order, with the saved state and the newest history oldest first", async () => {
    const engine = engineOf(echo);
    const s = setup(engine);
    s.addTicket(1);
    for (const body of ["oi", "qual o horário?", "obrigada"]) {
      expect((await s.arrive(1, body)).queued).toBe(true);
      expect(s.jobs.pending.map((j) => j.job)).toEqual([{ type: "feature", companyId: COMPANY, name: BOT_TURN_JOB, payload: { ticketId: 1 } }]);
      await s.drain();
    }
    expect(texts(s.sent)).toEqual(["eco: oi", "eco: qual o horário?", "eco: obrigada"]);
    expect(engine.calls.map((c) => c.state)).toEqual([null, { n: 1 }, { n: 2 }]);
    // the third turn saw the conversation up to its own message, ours included, oldest first
    expect(engine.calls[2]!.history.map((h) => `${h.fromMe ? "bot" : "cli"}:${h.body}`)).toEqual(["cli:oi", "bot:eco: oi", "cli:qual o horário?", "bot:eco: qual o horário?", "cli:obrigada"]);
    expect(engine.calls[2]!.contact.name).toBe("Maria Souza");
    expect(engine.calls[2]!.company.name).toBe("Padaria Pão Quente");
    expect((await s.usage.get(COMPANY, usageMonth(new Date()))).byPrompt[11]).toBe(45);
    expect(await s.runner.state(COMPANY, 1)).toMatchObject({ pending: [], leaseOwner: null, state: { n: 3 }, bot: { kind: "prompt", id: 11 }, stoppedAt: null, turns: 3 });
  });

  it("a binding that reads the history on demand gets none unless it asks; a handover's note reads it; sending reads the ticket no more", async () => {
    let asked: string[] = [];
    const engine = engineOf(async (input) => {
      if (input.message.body === "conta") asked = (await input.loadHistory!()).map((h) => h.body);
      if (input.message.body === "falha") throw new Error("fora do ar");
      return echo(input);
    });
    const s = setup(engine, { binding: { historyOnDemand: true } });
    const reads = { ticket: 0, history: 0 };
    const { ticket, history } = s.inbox;
    s.inbox.ticket = (...a) => (reads.ticket++, ticket(...a));
    s.inbox.history = (...a) => (reads.history++, history(...a));
    s.addTicket(1);
    await s.arrive(1, "oi");
    reads.ticket = 0;
    await s.drain();
    expect(engine.calls[0]!.history).toEqual([]);
    // one read of the ticket for the turn: the send's own write checks that nobody accepted it meanwhile
    expect(reads).toEqual({ ticket: 1, history: 0 });
    await s.arrive(1, "conta");
    await s.drain();
    expect(asked).toEqual(["oi", "eco: oi", "conta"]);
    expect(reads.history).toBe(1);
    await s.arrive(1, "falha");
    await s.drain();
    expect(s.notes[0]!.note).toContain("Cliente: falha");
    expect(s.notes[0]!.note).toContain("Bot: eco: conta");
  });

  it("runs one turn at a time per ticket while other tickets' turns go on beside it", async () => {
    let active = 0;
    let maxActive = 0;
    const release: (() => void)[] = [];
    const slowOnTicket1: Turn = async (input) => {
      if (input.ticket.id === 1) {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise<void>((r) => release.push(r));
        active--;
      }
      return echo(input);
    };
    const s = setup(engineOf(slowOnTicket1));
    s.addTicket(1);
    s.addTicket(2);
    await s.arrive(1, "primeira");
    await s.arrive(1, "segunda");
    await s.arrive(2, "outro cliente");
    const jobs = s.jobs.pending.splice(0);
    // three jobs at once, as a busy jobs consumer would run them
    const running = jobs.map(({ job }) => s.runner.runTicket(job.companyId, ticketOf(job)));
    await sleep(30);
    // ticket 2 was answered while ticket 1's bot is still thinking
    expect(texts(s.sent)).toEqual(["eco: outro cliente"]);
    // the second job of ticket 1 found the lease taken and looks again later (no second worker on the ticket)
    expect(s.jobs.pending).toEqual([expect.objectContaining({ delaySeconds: expect.any(Number) })]);
    expect(s.jobs.pending[0]!.delaySeconds).toBeGreaterThan(0);
    while (release.length < 1) await sleep(5);
    release.shift()!();
    while (release.length < 1) await sleep(5);
    expect(maxActive).toBe(1);
    release.shift()!();
    await Promise.all(running);
    expect(texts(s.sent.filter((x) => x.ticketId === 1))).toEqual(["eco: primeira", "eco: segunda"]);
    expect(maxActive).toBe(1);
    // the delayed look finds nothing left to do
    await s.drain();
    expect(s.sent).toHaveLength(3);
  });

  it("a message arriving while the holder finishes is still answered (release refuses while messages wait)", async () => {
    const ref: { s?: ReturnType<typeof setup> } = {};
    let once = false;
    const engine = engineOf(async (input) => {
      if (!once) {
        once = true;
        // arrives during the first turn; its job finds the lease held
        await ref.s!.arrive(1, "mais uma");
      }
      return echo(input);
    });
    const s = (ref.s = setup(engine));
    s.addTicket(1);
    await s.arrive(1, "oi");
    const first = s.jobs.pending.shift()!;
    await s.runner.runTicket(COMPANY, ticketOf(first.job));
    expect(texts(s.sent)).toEqual(["eco: oi", "eco: mais uma"]);
    // the first turn did not see the message that came after its own
    expect(engine.calls[0]!.history.map((h) => h.body)).toEqual(["oi"]);
    expect(engine.calls[1]!.history.map((h) => h.body)).toEqual(["oi", "mais uma", "eco: oi"]);
  });

  it("takes over a ticket whose worker died once its lease expired", async () => {
    const s = setup(engineOf(echo));
    s.addTicket(1);
    await s.arrive(1, "oi");
    s.jobs.pending.splice(0);
    const item = s.turns.items.get(`${COMPANY}:1`)!;
    item.leaseOwner = "dead-worker";
    item.leaseUntil = new Date(Date.now() - 1000).toISOString();
    await s.runner.runTicket(COMPANY, 1);
    expect(texts(s.sent)).toEqual(["eco: oi"]);
  });

  it("when our own side fails (the channel), the job fails and its retry answers the same message at once", async () => {
    const s = setup(engineOf(echo));
    s.addTicket(1);
    await s.arrive(1, "oi");
    const send = s.inbox.send;
    s.inbox.send = async () => {
      throw new Error("channel down");
    };
    const job = s.jobs.pending.shift()!;
    await expect(s.runner.runTicket(COMPANY, ticketOf(job.job))).rejects.toThrow("channel down");
    expect(await s.runner.state(COMPANY, 1)).toMatchObject({ pending: [expect.any(String)], leaseOwner: null });
    s.inbox.send = send;
    await s.runner.runTicket(COMPANY, ticketOf(job.job));
    expect(texts(s.sent)).toEqual(["eco: oi"]);
  });

  it("retries once after a timeout, then hands over with a note saying why; later messages get no turn", async () => {
    const engine = engineOf(() => new Promise<never>(() => undefined));
    const s = setup(engine, { timeoutMs: 40 });
    s.addTicket(1);
    await s.arrive(1, "oi, tudo bem?");
    await s.drain();
    expect(engine.calls).toHaveLength(2);
    expect(engine.calls[0]!.signal.aborted).toBe(true);
    expect(s.sent).toEqual([]);
    expect(s.notes).toHaveLength(1);
    expect(s.notes[0]!.note).toContain("não respondeu a tempo");
    expect(s.notes[0]!.note).toContain("Cliente: oi, tudo bem?");
    expect(await s.runner.state(COMPANY, 1)).toMatchObject({ stopReason: "timeout", stoppedAt: expect.any(String) });
    expect((await s.arrive(1, "alô?")).queued).toBe(false);
    await s.drain();
    expect(engine.calls).toHaveLength(2);
  });

  it("retries a transient error once and answers; a final error hands over at once", async () => {
    let n = 0;
    const flaky = engineOf(async (input) => {
      if (++n === 1) throw new BotTransientError("503");
      return echo(input);
    });
    const s = setup(flaky);
    s.addTicket(1);
    await s.arrive(1, "oi");
    await s.drain();
    expect(flaky.calls).toHaveLength(2);
    expect(texts(s.sent)).toEqual(["eco: oi"]);
    expect(s.notes).toEqual([]);

    const broken = engineOf(async () => {
      throw new Error("401 invalid api key");
    });
    const t = setup(broken);
    t.addTicket(1);
    await t.arrive(1, "oi");
    await t.drain();
    expect(broken.calls).toHaveLength(1);
    expect(t.notes[0]!.note).toContain("O bot falhou: 401 invalid api key");
  });

  it("never answers a ticket a person owns, a group, or our own messages", async () => {
    const engine = engineOf(echo);
    const s = setup(engine);
    s.addTicket(1, { userId: 4, status: "open" });
    s.addTicket(2, { isGroup: true });
    s.addTicket(3);
    s.addTicket(4, { queueId: 9 }); // a queue without a bot
    expect((await s.arrive(1, "oi")).queued).toBe(false);
    expect((await s.arrive(2, "oi")).queued).toBe(false);
    expect((await s.arrive(3, "do celular da empresa", { fromMe: true })).queued).toBe(false);
    expect((await s.arrive(4, "oi")).queued).toBe(false);
    await s.drain();
    expect(engine.calls).toEqual([]);
    expect(s.sent).toEqual([]);
  });

  it("an attendant accepting silences the bot at once: before the turn, and while the model thinks", async () => {
    const ref: { s?: ReturnType<typeof setup> } = {};
    const engine = engineOf(async (input) => {
      // the attendant accepts while the engine is answering
      Object.assign(ref.s!.tickets.get(input.ticket.id)!, { userId: 4, status: "open" });
      return echo(input);
    });
    const s = (ref.s = setup(engine));
    s.addTicket(1);
    s.addTicket(2);
    await s.arrive(1, "oi");
    await s.arrive(2, "oi");
    Object.assign(s.tickets.get(2)!, { userId: 5, status: "open" }); // accepted before its turn ran
    await s.drain();
    expect(engine.calls.map((c) => c.ticket.id)).toEqual([1]);
    expect(s.sent).toEqual([]);
    expect(await s.runner.state(COMPANY, 1)).toMatchObject({ stopReason: "attendant" });
    expect(await s.runner.state(COMPANY, 2)).toMatchObject({ stopReason: "attendant" });
  });

  it("hands over on the keywords before the model is called, with the engine's summary in the note", async () => {
    const engine = engineOf(echo, { summarize: async () => ({ summary: "Cliente quer trocar um pedido.", usage: { promptTokens: 3, completionTokens: 2 } }) });
    const s = setup(engine);
    s.addTicket(1);
    await s.arrive(1, "quero trocar o pedido");
    await s.arrive(1, "Quero falar com um ATENDENTE, por favor!");
    await s.drain();
    expect(engine.calls.map((c) => c.message.body)).toEqual(["quero trocar o pedido"]);
    expect(s.notes).toEqual([{ ticketId: 1, note: expect.stringContaining('O cliente pediu para falar com um atendente ("atendente")') }]);
    expect(s.notes[0]!.note).toContain("Cliente quer trocar um pedido.");
    expect(await s.runner.state(COMPANY, 1)).toMatchObject({ stopReason: "keyword" });
  });

  it("hands over when the model calls the handover tool, and when the bot says nothing", async () => {
    const tool = engineOf(async () => ({ messages: [{ kind: "text", body: "Vou chamar alguém." }], actions: [{ type: "handover", reason: "pedido de gerente", note: "Quer falar com o gerente." }], state: null }));
    const s = setup(tool);
    s.addTicket(1);
    await s.arrive(1, "quero falar com um gerente");
    await s.drain();
    expect(texts(s.sent)).toEqual(["Vou chamar alguém."]);
    expect(s.notes[0]!.note).toMatch(/passou a conversa para um atendente: pedido de gerente[\s\S]*Quer falar com o gerente\./);

    const mute = engineOf(async () => ({ messages: [], actions: [], state: null }));
    const t = setup(mute);
    t.addTicket(1);
    await t.arrive(1, "oi");
    await t.drain();
    expect(t.notes[0]!.note).toContain("não respondeu nada");
    expect(await t.runner.state(COMPANY, 1)).toMatchObject({ stopReason: "silent" });
  });

  it("applies the bot's actions through the inbox; a refused action hands over", async () => {
    const engine = engineOf(async (input) =>
      input.message.body === "mudar"
        ? { messages: [{ kind: "text", body: "Transferindo" }], actions: [{ type: "transferQueue", queueId: 5 }, { type: "addTag", tag: "vip" }], state: { step: 2 } }
        : { messages: [{ kind: "text", body: "ok" }], actions: [{ type: "transferQueue", queueId: 404 }], state: null },
    );
    const s = setup(engine);
    s.addTicket(1);
    await s.arrive(1, "mudar");
    await s.drain();
    expect(s.applied).toEqual([
      { ticketId: 1, action: { type: "transferQueue", queueId: 5 } },
      { ticketId: 1, action: { type: "addTag", tag: "vip" } },
    ]);
    // on queue 5 another prompt (id 12) answers: it starts afresh, without prompt 11's state
    await s.arrive(1, "de novo");
    await s.drain();
    expect(engine.calls[1]!.state).toBeNull();
    expect(s.notes[0]!.note).toContain("ERR_NO_QUEUE_FOUND");
  });

  it("hands over instead of answering once the prompt's monthly token cap is reached", async () => {
    const engine = engineOf(echo);
    const s = setup(engine, { binding: { monthlyTokenCap: 20 } });
    s.addTicket(1);
    await s.arrive(1, "oi");
    await s.drain();
    await s.arrive(1, "e agora?");
    await s.drain();
    // first turn used 15 tokens (under 20), the second found 15 < 20 and answered, the third is over the cap
    await s.arrive(1, "mais?");
    await s.drain();
    expect(engine.calls).toHaveLength(2);
    expect(s.notes[0]!.note).toContain("limite mensal de tokens do prompt foi atingido (30 de 20)");
  });

  it("stores the transcript the engine made of a customer's audio", async () => {
    const engine = engineOf(async (input) => {
      const bytes = await input.readMedia!();
      return { messages: [{ kind: "text", body: `ouvi ${bytes.length} bytes` }], actions: [], state: null, transcript: "qual o preço do pão?" };
    });
    const s = setup(engine);
    s.addTicket(1);
    const { m } = await s.arrive(1, "", { mediaType: "audio", mediaKey: "k/audio.ogg", mediaUrl: "/api/media/1" });
    await s.drain();
    expect(s.transcripts.get(m.id)).toBe("qual o preço do pão?");
    expect(texts(s.sent)).toEqual(["ouvi 3 bytes"]);
    expect(engine.calls[0]!.message.mediaType).toBe("audio");
  });
});
