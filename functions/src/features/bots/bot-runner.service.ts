import { randomBytes } from "node:crypto";
import { matchHandoverKeyword } from "@atende/shared/domain/bots/handover-keywords";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { Logger } from "../../platform/logger";
import { noMetrics, recordBotAnswer, recordHandover, type HandoverReason, type Metrics } from "../../platform/metrics";
import { BotTransientError, type BotAction, type BotEngine, type BotEngines, type BotHistoryMessage, type BotTurnInput, type BotTurnResult } from "./bot-engine.port";
import type { BotBinding, BotInbox, BotResolver, BotStoredMessage, BotTicket } from "./bot-inbox.port";
import type { BotTicketItem, BotTurnPatch, BotTurnStore } from "./bot-turns.repository";
import { usageMonth, type BotUsageStore } from "./bot-usage.repository";

/** The job that runs a ticket's waiting turns (a generic `feature` job on the jobs queue). */
export const BOT_TURN_JOB = "bots.turn";
export type BotTurnJobPayload = { ticketId: number };
/** The job that wakes a ticket's bot at a time it asked for (a flow's `wait`, issue 30): delayed, re-queued until due. */
export const BOT_WAKE_JOB = "bots.wake";
export type BotWakeJobPayload = { ticketId: number; at: string };
/** A timer's turn waits in the ticket's queue like a customer message, under this id prefix. */
export const BOT_TIMER_PREFIX = "bot-timer:";
/** The jobs queue's longest delay (SQS: 15 minutes); a longer wait is re-queued. */
const MAX_JOB_DELAY_SECONDS = 900;

/** Per engine call (turn or summary); the whole turn may take two calls (one retry). */
export const DEFAULT_BOT_TIMEOUT_MS = 20_000;
/** How many messages the runner reads for an engine that does not say (prompts say: maxMessages). */
export const DEFAULT_HISTORY_LIMIT = 20;
export const MAX_HISTORY_LIMIT = 100;

/** Why a turn ended in a handover; written (pt, like every automatic text) at the top of the internal note. */
export const HANDOVER_REASONS = {
  keyword: (k: string) => `O cliente pediu para falar com um atendente ("${k}").`,
  model: (why: string) => `O bot passou a conversa para um atendente${why ? `: ${why}` : "."}`,
  timeout: "O bot não respondeu a tempo (duas tentativas).",
  failed: (why: string) => `O bot falhou: ${why}`,
  silent: "O bot não respondeu nada a esta mensagem.",
  cap: (used: number, cap: number) => `O limite mensal de tokens do prompt foi atingido (${used} de ${cap}).`,
  refused: (what: string, why: string) => `O bot pediu uma ação que não foi possível (${what}: ${why}).`,
} as const;

/** The stop reasons of a turn that handed the ticket to a person (the others: an attendant took it, it closed ...). */
const HANDOVER_BY_STOP: Partial<Record<string, HandoverReason>> = {
  keyword: "keyword",
  cap: "cap",
  timeout: "timeout",
  failed: "failed",
  silent: "silent",
  handover: "model",
  refused: "refused",
};

class BotTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "BotTimeoutError";
  }
}

const isTransient = (err: unknown) => err instanceof BotTransientError || (err as Error)?.name === "BotTransientError" || err instanceof BotTimeoutError;

type CallOutcome<T> = { ok: true; value: T } | { ok: false; timedOut: boolean; reason: string };

/** The conversation so far, for a handover note when the engine gives no summary of its own. */
export const excerptOf = (history: BotHistoryMessage[], max = 8) =>
  history
    .slice(-max)
    .map((m) => `${m.fromMe ? "Bot" : "Cliente"}: ${(m.body || `[${m.mediaType ?? "mídia"}]`).replace(/\s+/g, " ").slice(0, 300)}`)
    .join("\n");

/** The handover note: why, the bot's summary when it made one, and the last lines of the conversation as they were. */
export const noteOf = (reason: string, history: BotHistoryMessage[], summary = "") =>
  [reason, ...(summary ? ["", `Resumo: ${summary}`] : []), "", "Últimas mensagens:", excerptOf(history)].join("\n");

/** The eligibility every turn checks: a person owns nothing, the ticket waits, it is not a group. */
export const botMayAnswer = (t: BotTicket) => t.userId === null && t.status === "pending" && !t.isGroup;

/**
 * Inbound (after automation): queues the message for its turn when a bot answers this ticket. The message is already
 * stored; the turn runs on the jobs queue, so a slow bot never holds the inbound queue. Needs no inbox: the inbox is
 * given it at construction (bots.module.ts).
 */
export const createTurnIntake =
  (deps: { engines: BotEngines; resolver: BotResolver; turns: Pick<BotTurnStore, "push">; jobs: JobQueue; clock: () => Date }) =>
  async (ticket: BotTicket, message: { id: string; fromMe: boolean }): Promise<boolean> => {
    if (message.fromMe || !botMayAnswer(ticket)) return false;
    const binding = await deps.resolver.resolve(ticket);
    if (!binding || !deps.engines[binding.kind]) return false;
    if (!(await deps.turns.push(ticket.companyId, ticket.id, message.id, deps.clock(), ticket.contactId))) return false;
    await deps.jobs.enqueue({ type: "feature", companyId: ticket.companyId, name: BOT_TURN_JOB, payload: { ticketId: ticket.id } satisfies BotTurnJobPayload });
    return true;
  };

/**
 * The bot runner (issue 11, ADR 0026): one turn per customer message while a bot is bound to the ticket's queue or
 * connection and nobody owns the ticket. Turns of one ticket run one at a time and in arrival order (a lease on the
 * ticket's bot item, the waiting message ids in it); other tickets' turns run beside them (their own jobs). The
 * engine call has a timeout and one retry for transient errors; failure, silence, the handover keywords, the
 * model's handover tool and the monthly token cap hand the ticket to a human with an internal note. Whatever the
 * customer wrote is already stored in the conversation by the inbox before a turn is even queued.
 */
export const createBotRunner = (deps: {
  engines: BotEngines;
  resolver: BotResolver;
  inbox: BotInbox;
  turns: BotTurnStore;
  usage: BotUsageStore;
  jobs: JobQueue;
  clock: () => Date;
  logger: Logger;
  timeoutMs?: number;
  /** how long a worker holds a ticket without finishing a turn before another may take over (crash) */
  leaseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** bot answers and handovers (CloudWatch EMF in Lambda) */
  metrics?: Metrics;
}) => {
  const { engines, resolver, inbox, turns, usage, jobs, clock, logger } = deps;
  const metrics = deps.metrics ?? noMetrics;
  const timeoutMs = deps.timeoutMs ?? DEFAULT_BOT_TIMEOUT_MS;
  const leaseMs = deps.leaseMs ?? Math.max(60_000, 4 * timeoutMs + 30_000);
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  const enqueue = (companyId: number, ticketId: number, delaySeconds = 0) =>
    jobs.enqueue({ type: "feature", companyId, name: BOT_TURN_JOB, payload: { ticketId } satisfies BotTurnJobPayload }, delaySeconds);

  /** One engine call under the timeout, retried once when the error may pass. */
  const call = async <T>(fn: (signal: AbortSignal) => Promise<T>, attempts = 2): Promise<CallOutcome<T>> => {
    let last: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const ac = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          ac.abort();
          reject(new BotTimeoutError(timeoutMs));
        }, timeoutMs);
      });
      try {
        return { ok: true, value: await Promise.race([fn(ac.signal), timeout]) };
      } catch (err) {
        last = err;
        if (!isTransient(err)) break;
      } finally {
        clearTimeout(timer);
      }
    }
    return { ok: false, timedOut: last instanceof BotTimeoutError, reason: String((last as Error)?.message ?? last).slice(0, 300) };
  };

  const countUsage = async (ticket: BotTicket, binding: BotBinding, u: BotTurnResult["usage"]) => {
    if (!u || u.promptTokens + u.completionTokens <= 0) return;
    await usage.add(ticket.companyId, usageMonth(clock()), binding.id, u).catch((err) => logger.warn("bots: usage not counted", { companyId: ticket.companyId, err: String(err) }));
  };

  /** The conversation for a note: as the engine got it, or read now when the binding reads it on demand. */
  const historyOf = async (input: BotTurnInput) => (input.loadHistory ? input.loadHistory() : input.history);

  /** The internal note: why, then the engine's summary of the conversation (or an excerpt of it). */
  const handover = async (ticket: BotTicket, engine: BotEngine<unknown>, binding: BotBinding, input: BotTurnInput, reason: string, note?: string) => {
    let summary = note?.trim() ?? "";
    if (!summary && engine.summarize) {
      const out = await call((signal) => engine.summarize!(binding.config, { ...input, signal }), 1);
      if (out.ok) {
        summary = out.value.summary.trim();
        await countUsage(ticket, binding, out.value.usage);
      }
    }
    await inbox.handover(ticket, noteOf(reason, await historyOf(input), summary));
    logger.info("bots: handed over", { companyId: ticket.companyId, ticketId: ticket.id, kind: binding.kind, reason });
  };

  const stopPatch = (reason: string, extra: BotTurnPatch = {}): BotTurnPatch => ({ ...extra, stop: { at: clock(), reason } });

  /** One customer message's turn; answers what to save. Throws only for our own failures (table, inbox): the job retries. */
  const turn = async (item: BotTicketItem, messageId: string): Promise<BotTurnPatch> => {
    if (item.stoppedAt) return {};
    const { companyId, ticketId } = item;
    // the ticket and the customer's message side by side (one round trip; the message is read even for a ticket
    // that turns out not to be the bot's, the rare case)
    const [ticket, message] = await Promise.all([
      inbox.ticket(companyId, ticketId, { turn: { contactId: item.contactId } }),
      messageId.startsWith(BOT_TIMER_PREFIX) ? timerMessage(messageId, ticketId) : inbox.message(companyId, ticketId, messageId),
    ]);
    if (!ticket) return stopPatch("ticket deleted");
    if (!botMayAnswer(ticket)) return stopPatch(ticket.userId !== null ? "attendant" : ticket.isGroup ? "group" : `ticket ${ticket.status}`);
    // the binding (the item we hold answers a running flow's) beside the names for the engine
    const [binding, ctx] = await Promise.all([resolver.resolve(ticket, { item }), inbox.context(ticket)]);
    if (!binding) return {};
    const engine = engines[binding.kind] as BotEngine<unknown> | undefined;
    if (!engine) {
      logger.warn("bots: no engine for this kind yet", { companyId, ticketId, kind: binding.kind });
      return {};
    }
    if (!message || message.fromMe) return {};
    if (!ctx) return {};
    const sameBot = item.bot?.kind === binding.kind && item.bot.id === binding.id;
    const botRef = { kind: binding.kind, id: binding.id };
    const limit = Math.min(MAX_HISTORY_LIMIT, binding.historyLimit ?? DEFAULT_HISTORY_LIMIT);
    const readHistory = () => inbox.history(companyId, ticketId, message, limit, item.pending.slice(1));
    let loaded: Promise<BotHistoryMessage[]> | undefined;
    const history = binding.historyOnDemand ? [] : await readHistory();
    const input: BotTurnInput = {
      ...ctx,
      ticket: { id: ticket.id, uuid: ticket.uuid, queueId: ticket.queueId, protocol: ticket.protocol ?? null },
      message: toTurnMessage(message),
      history,
      ...(binding.historyOnDemand ? { loadHistory: () => (loaded ??= readHistory()) } : {}),
      state: sameBot ? item.state : null,
      now: clock(),
      signal: new AbortController().signal,
      ...(message.mediaKey ? { readMedia: () => inbox.readMedia(companyId, message) } : {}),
    };

    const keyword = matchHandoverKeyword(message.transcript ?? message.body, engine.handoverKeywords?.(binding.config) ?? []);
    if (keyword) {
      await handover(ticket, engine, binding, input, HANDOVER_REASONS.keyword(keyword));
      return stopPatch("keyword", { bot: botRef, state: null });
    }
    if (binding.monthlyTokenCap && binding.monthlyTokenCap > 0) {
      const used = (await usage.get(companyId, usageMonth(clock()))).byPrompt[binding.id] ?? 0;
      if (used >= binding.monthlyTokenCap) {
        await inbox.handover(ticket, noteOf(HANDOVER_REASONS.cap(used, binding.monthlyTokenCap), await historyOf(input)));
        return stopPatch("cap", { bot: botRef, state: null });
      }
    }

    const out = await call((signal) => engine.turn(binding.config, { ...input, signal }));
    if (!out.ok) {
      logger.warn("bots: engine failed", { companyId, ticketId, kind: binding.kind, timedOut: out.timedOut, reason: out.reason });
      const reason = out.timedOut ? HANDOVER_REASONS.timeout : HANDOVER_REASONS.failed(out.reason);
      await inbox.handover(ticket, noteOf(reason, await historyOf(input)));
      return stopPatch(out.timedOut ? "timeout" : "failed", { bot: botRef });
    }
    const result = out.value;
    await countUsage(ticket, binding, result.usage);
    if (result.transcript && !message.transcript) await inbox.saveTranscript(companyId, ticketId, message.id, result.transcript);
    const withTranscript = result.transcript ? { ...input, message: { ...input.message, body: result.transcript, transcript: result.transcript } } : input;
    if (result.messages.length === 0 && result.actions.length === 0 && !result.quiet) {
      await handover(ticket, engine, binding, withTranscript, HANDOVER_REASONS.silent);
      return stopPatch("silent", { bot: botRef, state: result.state });
    }

    // an attendant may have accepted while the engine thought: then the answer is not sent. Each message's write
    // checks it on the ticket as written (its version guards the write), so sending reads nothing more; actions
    // alone (no message first) read the ticket again
    let current: BotTicket | null = ticket;
    if (result.messages.length === 0) current = await inbox.ticket(companyId, ticketId);
    if (!current || !botMayAnswer(current)) return stopPatch("attendant", { bot: botRef, state: result.state });
    for (const [i, m] of result.messages.entries()) {
      if (i > 0 && result.delayMs && result.delayMs > 0) {
        await sleep(result.delayMs);
        current = await inbox.ticket(companyId, ticketId);
        if (!current || !botMayAnswer(current)) return stopPatch("attendant", { bot: botRef, state: result.state });
      }
      const followed = i < result.messages.length - 1;
      if ((await inbox.send(current, m, `${message.id}:${i}`, { onlyIf: botMayAnswer, ...(followed ? { followed } : {}) })) === false) return stopPatch("attendant", { bot: botRef, state: result.state });
    }
    if (result.messages.length > 0) recordBotAnswer(metrics, binding.kind);
    const patch = await applyActions(current, engine, binding, withTranscript, result, botRef);
    if (result.wakeAt && !patch.stop) await wakeAt(companyId, ticketId, result.wakeAt);
    return result.stop && !patch.stop ? stopPatch(result.stop, patch) : patch;
  };

  const applyActions = async (
    ticket: BotTicket,
    engine: BotEngine<unknown>,
    binding: BotBinding,
    input: BotTurnInput,
    result: BotTurnResult,
    botRef: { kind: BotBinding["kind"]; id: number },
  ): Promise<BotTurnPatch> => {
    let patch: BotTurnPatch = { bot: botRef, state: result.state };
    for (const action of result.actions) {
      if (action.type === "handover") {
        await handover(ticket, engine, binding, input, HANDOVER_REASONS.model(action.reason), action.note);
        return stopPatch("handover", { bot: botRef, state: null });
      }
      try {
        await inbox.apply(ticket, action);
      } catch (err) {
        const why = (err as { code?: string }).code ?? String((err as Error).message ?? err);
        await handover(ticket, engine, binding, input, HANDOVER_REASONS.refused(describe(action), why));
        return stopPatch("refused", { bot: botRef, state: null });
      }
      // a ticket given to a person or closed is no longer the bot's
      if (action.type === "transferUser" || action.type === "close") patch = stopPatch(action.type, patch);
    }
    return patch;
  };

  const wakeAt = async (companyId: number, ticketId: number, at: Date) => {
    const delay = Math.ceil((at.getTime() - clock().getTime()) / 1000);
    await jobs.enqueue({ type: "feature", companyId, name: BOT_WAKE_JOB, payload: { ticketId, at: at.toISOString() } satisfies BotWakeJobPayload }, Math.min(MAX_JOB_DELAY_SECONDS, Math.max(0, delay)));
  };

  return {
    /** The `bots.wake` job: not due yet, queued again; due, a timer turn waits in the ticket's queue and runs. */
    async wake(companyId: number, ticketId: number, at: string): Promise<void> {
      const due = new Date(at);
      if (due.getTime() - clock().getTime() > 1000) return wakeAt(companyId, ticketId, due);
      if (await turns.push(companyId, ticketId, `${BOT_TIMER_PREFIX}${at}`, clock())) await enqueue(companyId, ticketId);
    },

    /** the intake (createTurnIntake), for tests that drive a runner alone */
    onCustomerMessage: createTurnIntake({ engines, resolver, turns, jobs, clock }),

    /** The `bots.turn` job: runs the ticket's waiting turns in order while holding its lease. */
    async runTicket(companyId: number, ticketId: number): Promise<void> {
      const owner = randomBytes(8).toString("hex");
      const got = await turns.acquire(companyId, ticketId, owner, clock(), leaseMs);
      if ("idle" in got) return;
      if ("heldUntil" in got) {
        // another worker runs this ticket; look again when its lease would have expired (it may have crashed)
        const wait = Math.ceil((got.heldUntil.getTime() - clock().getTime()) / 1000) + 1;
        await enqueue(companyId, ticketId, Math.min(900, Math.max(1, wait)));
        return;
      }
      let item = got.item;
      try {
        for (;;) {
          while (item.pending.length > 0) {
            const messageId = item.pending[0]!;
            const patch = await turn(item, messageId);
            const handedOver = patch.stop && HANDOVER_BY_STOP[patch.stop.reason];
            if (handedOver) recordHandover(metrics, handedOver);
            // the last message we know of: its write lets the lease go too, unless another arrived meanwhile
            const next = await turns.done(companyId, ticketId, owner, messageId, patch, clock(), leaseMs, { release: item.pending.length === 1 });
            if (!next) {
              logger.warn("bots: lease lost mid-run", { companyId, ticketId });
              return;
            }
            if (next.leaseOwner === null) return;
            item = next;
          }
          if (await turns.release(companyId, ticketId, owner)) return;
          const again = await turns.get(companyId, ticketId);
          if (!again || again.leaseOwner !== owner) return;
          item = again;
        }
      } catch (err) {
        // our own failure (table, inbox, channel): the job fails and is retried; let its retry take the ticket at once
        await turns.abandon(companyId, ticketId, owner).catch(() => undefined);
        throw err;
      }
    },

    /** The bot of a ticket, for the conversation's header and tests. */
    state: (companyId: number, ticketId: number) => turns.get(companyId, ticketId),
  };
};
export type BotRunner = ReturnType<typeof createBotRunner>;

/** A timer's turn: no customer words (the engine tells it by its id). */
const timerMessage = (id: string, ticketId: number): BotStoredMessage => ({
  id,
  ticketId,
  fromMe: false,
  body: "",
  mediaType: "chat",
  mediaUrl: null,
  mediaKey: null,
  mediaMimetype: null,
  transcript: null,
  createdAt: id.slice(BOT_TIMER_PREFIX.length),
});

const toTurnMessage = (m: BotStoredMessage): BotTurnInput["message"] => ({
  id: m.id,
  body: m.transcript ?? m.body,
  ...(m.mediaType && m.mediaType !== "chat" ? { mediaType: m.mediaType } : {}),
  ...(m.mediaUrl ? { mediaUrl: m.mediaUrl } : {}),
  ...(m.transcript ? { transcript: m.transcript } : {}),
  ...(m.replyId ? { replyId: m.replyId } : {}),
  createdAt: m.createdAt,
});

const describe = (a: Exclude<BotAction, { type: "handover" }>) =>
  a.type === "transferQueue"
    ? `transferir para a fila ${a.queueId}`
    : a.type === "transferUser"
      ? `transferir para o usuário ${a.userId}`
      : a.type === "close"
        ? "encerrar"
        : a.type === "saveContact"
          ? `salvar ${a.field === "extra" ? `o campo ${a.key ?? ""}` : a.field === "email" ? "o e-mail" : "o nome"} do contato`
          : `etiqueta ${a.tag}`;
