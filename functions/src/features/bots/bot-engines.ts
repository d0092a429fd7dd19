import type { BotEngines } from "./bot-engine.port";
import type { AzureSpeech } from "./azure-speech.client";
import { createPromptEngine } from "./prompt-engine";

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
};

export const createBotEngines = (deps: BotEngineDeps): BotEngines => ({
  prompt: createPromptEngine({ speech: deps.speech }),
});
