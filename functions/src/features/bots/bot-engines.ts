import type { BotEngine, BotEngines } from "./bot-engine.port";
import type { AzureSpeech } from "./azure-speech.client";
import type { PromptBotConfig } from "./prompt-engine";
import type { DialogflowRest } from "../../platform/dialogflow/dialogflow-rest.adapter";
import type { UrlGuard } from "../../platform/net/public-url-guard";
import { createDialogflowEngine } from "./engines/dialogflow.engine";
import { createTypebotEngine } from "./engines/typebot.engine";
import { createWebhookEngine } from "./engines/webhook.engine";

/**
 * THE registration point of the bot kinds (ADR 0026): the runner looks an engine up here by the binding's kind.
 * A kind without an engine is skipped (logged), so kinds can land one at a time.
 *
 * bots-flows (ADR 0027) adds its engines here, e.g.:
 *   typebot: createTypebotEngine(deps.flows),
 *   n8n: webhook engine, webhook: webhook engine,
 *   dialogflow: createDialogflowEngine(deps.flows),
 * with whatever those engines need added to `BotEngineDeps`.
 */
/**
 * Builds the AI prompt engine (prompt-engine.ts, the `openai` package). Passed in by the composition root from the
 * handler that runs bot turns (the jobs Lambda, the local runner, tests), so the other Lambdas do not bundle
 * `openai` (ADR 0038).
 */
export type PromptEngineFactory = (deps: { speech: AzureSpeech; fetch?: typeof fetch }) => BotEngine<PromptBotConfig>;

/**
 * Where turns never run (the API, inbound and tick Lambdas) the intake still needs to know that the kind exists to
 * queue a turn; running one here is a wiring mistake.
 */
const promptEngineElsewhere: BotEngine<PromptBotConfig> = {
  kind: "prompt",
  turn: async () => {
    throw new Error("the prompt engine is not wired in this Lambda: bot turns run on the jobs Lambda (functions/src/app/lambda-roles.ts)");
  },
};

export type BotEngineDeps = {
  speech: AzureSpeech;
  /** the AI prompt engine's factory; absent: a stand-in that only says the kind exists */
  prompt?: PromptEngineFactory;
  /**
   * the flow kinds (ADR 0027): DialogFlow's REST client (token and API addresses from config); `fetch`: the guarded
   * outbound fetch (docs/adr/0062) the flows and the AI prompt engine call through (tests: a stand-in)
   */
  flows: { dialogflow: DialogflowRest; guard: UrlGuard; fetch?: typeof fetch };
};

export const createBotEngines = (deps: BotEngineDeps): BotEngines => ({
  prompt: deps.prompt ? deps.prompt({ speech: deps.speech, fetch: deps.flows.fetch }) : promptEngineElsewhere,
  typebot: createTypebotEngine({ fetch: deps.flows.fetch, guard: deps.flows.guard }),
  n8n: createWebhookEngine("n8n", { fetch: deps.flows.fetch, guard: deps.flows.guard }),
  webhook: createWebhookEngine("webhook", { fetch: deps.flows.fetch, guard: deps.flows.guard }),
  dialogflow: createDialogflowEngine({ rest: deps.flows.dialogflow }),
});
