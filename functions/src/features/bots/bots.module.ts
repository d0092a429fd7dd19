import type { FeatureModule } from "../../platform/modules/feature-module";
import type { Db } from "../../platform/db/client";
import { coalescedReads } from "../../platform/db/coalesced-reads";
import type { Logger } from "../../platform/logger";
import type { Metrics } from "../../platform/metrics";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { SecretBox } from "../../platform/secrets/secret-box.port";
import { createAzureSpeech } from "./azure-speech.client";
import type { BotEngine, BotEngines } from "./bot-engine.port";
import { createBotEngines, type BotEngineDeps, type PromptEngineFactory } from "./bot-engines";
import type { BotBinding, BotInbox, BotResolver, BotTicket, KnownBotItem } from "./bot-inbox.port";
import { createBotResolver, type StoredIntegration, type StoredPrompt } from "./bot-resolver";
import { BOT_TURN_JOB, BOT_WAKE_JOB, createBotRunner, createTurnIntake, type BotRunner } from "./bot-runner.service";
import { createBotTurnsRepository, type BotTurnStore } from "./bot-turns.repository";
import { createBotUsageRepository, type BotUsageStore } from "./bot-usage.repository";

/**
 * The bots feature (ADR 0026) in two steps, because the inbox and the runner need each other:
 * 1. `createBotIntake` — built before the inbox from reads (prompts, integrations, queues, connections): which bot a
 *    ticket has, and queueing a customer message's turn. The inbox gets `intake.onCustomerMessage` at construction.
 * 2. `createBotsModule` — built after the inbox with its bot facade: the runner, registered as the `bots.turn` job.
 */
export type BotIntakeDeps = {
  db: Db;
  jobs: JobQueue;
  secrets: SecretBox;
  clock: () => Date;
  logger: Logger;
  /** reads of the features a binding comes from (their services or lookups, never their repositories) */
  queue: (companyId: number, id: number) => Promise<{ promptId: number | null; integrationId: number | null } | null>;
  connection: (companyId: number, id: number) => Promise<{ promptId: number | null; integrationId: number | null } | null>;
  prompt: (companyId: number, id: number) => Promise<StoredPrompt | null>;
  integration: (companyId: number, id: number) => Promise<StoredIntegration | null>;
  /** bots-flows: a stored integration as its engine's config (secrets opened); default: the record itself */
  integrationConfig?: (integration: StoredIntegration) => Promise<unknown>;
  /**
   * bots-flows (ADR 0027): DialogFlow's REST client, the outbound URL guard and the guarded fetch (docs/adr/0062)
   * every bot call goes through: Typebot, n8n, webhooks, the AI endpoint and Azure Speech
   */
  flows: BotEngineDeps["flows"];
  /** Azure Speech's endpoint base with `{region}` (config AZURE_SPEECH_BASE_URL) */
  speechBaseUrl?: string;
  timeoutMs?: number;
  /** the AI prompt engine (the `openai` package): only where turns run (ADR 0038) */
  promptEngine?: PromptEngineFactory;
  /** bot answers and handovers (the runner counts them) */
  metrics?: Metrics;
  /** issue 30: flows as a bot kind: which flow a ticket has, and the engine (built by the flows feature) */
  flow?: (ticket: BotTicket, known?: { item?: KnownBotItem }) => Promise<BotBinding | null>;
  flowEngine?: BotEngine<unknown>;
};

export const createBotIntake = (deps: BotIntakeDeps) => {
  const resolver: BotResolver = createBotResolver(deps);
  const turns: BotTurnStore = createBotTurnsRepository(deps.db);
  const usage: BotUsageStore = createBotUsageRepository(deps.db);
  const engines: BotEngines = createBotEngines({ speech: createAzureSpeech({ baseUrl: deps.speechBaseUrl, fetch: deps.flows.fetch }), flows: deps.flows, prompt: deps.promptEngine });
  if (deps.flowEngine) engines.flow = deps.flowEngine;
  return {
    resolver,
    turns,
    usage,
    engines,
    deps,
    /** the inbox's customer-message handler: queues a turn when a bot answers this ticket */
    onCustomerMessage: createTurnIntake({ engines, resolver, turns, jobs: deps.jobs, clock: deps.clock }),
  };
};
export type BotIntake = ReturnType<typeof createBotIntake>;

export const createBotsModule = (deps: { intake: BotIntake; inbox: BotInbox }): FeatureModule<BotRunner> => {
  const { intake } = deps;
  const runner = createBotRunner({
    engines: intake.engines,
    resolver: intake.resolver,
    inbox: deps.inbox,
    turns: intake.turns,
    usage: intake.usage,
    jobs: intake.deps.jobs,
    clock: intake.deps.clock,
    logger: intake.deps.logger,
    timeoutMs: intake.deps.timeoutMs,
    metrics: intake.deps.metrics,
  });
  return {
    service: runner,
    jobs: {
      named: {
        // a turn's side-by-side point reads (ticket, message, contact) answered by one BatchGetItem (docs/adr/0040)
        [BOT_TURN_JOB]: (companyId, payload) => coalescedReads(intake.deps.db, () => runner.runTicket(companyId, Number(payload.ticketId))),
        [BOT_WAKE_JOB]: (companyId, payload) => runner.wake(companyId, Number(payload.ticketId), String(payload.at)),
      },
    },
  };
};
