import type { BotEngines } from "./bot-engine.port";
import type { AzureSpeech } from "./azure-speech.client";
import { createPromptEngine } from "./prompt-engine";
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
export type BotEngineDeps = {
  speech: AzureSpeech;
  /** the flow kinds (ADR 0027): DialogFlow's REST client (token and API addresses from config); fetch for tests */
  flows: { dialogflow: DialogflowRest; guard: UrlGuard; fetch?: typeof fetch };
};

export const createBotEngines = (deps: BotEngineDeps): BotEngines => ({
  prompt: createPromptEngine({ speech: deps.speech }),
  typebot: createTypebotEngine({ fetch: deps.flows.fetch, guard: deps.flows.guard }),
  n8n: createWebhookEngine("n8n", { fetch: deps.flows.fetch, guard: deps.flows.guard }),
  webhook: createWebhookEngine("webhook", { fetch: deps.flows.fetch, guard: deps.flows.guard }),
  dialogflow: createDialogflowEngine({ rest: deps.flows.dialogflow }),
});
