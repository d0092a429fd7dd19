import middy from "@middy/core";
import type { SQSEvent } from "aws-lambda";
import { consumeJobs } from "../app/jobs-consumer";
import { loadConfig } from "../platform/config";
import { createContainer } from "../app/container";
import { createPromptEngine } from "../features/bots/prompt-engine";
import { createOpenAiCopilotProvider } from "../features/copilot/copilot-provider.openai";

// bot turns run here, so the AI prompt engine (heavy ports: app/lambda-roles.ts `jobs`)
const container = createContainer(loadConfig(), { promptEngine: createPromptEngine, copilotProvider: createOpenAiCopilotProvider });

/** SQS `jobs` queue -> delayed jobs (partial batch failures on). */
export const handler = middy(async (event: SQSEvent) => consumeJobs(container, event));
