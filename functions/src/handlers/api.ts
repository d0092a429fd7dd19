import { handle } from "hono/aws-lambda";
import { loadConfig } from "../platform/config";
import { createContainer } from "../app/container";
import { createHttpApp } from "../app/http-app";
import { xlsxSpreadsheets } from "../platform/spreadsheets/xlsx.adapter";
import { createOpenAiCopilotProvider } from "../features/copilot/copilot-provider.openai";

/** API Gateway HTTP API -> the Hono app (heavy ports: app/lambda-roles.ts `api`). */
export const handler = handle(createHttpApp(createContainer(loadConfig(), { spreadsheets: xlsxSpreadsheets, copilotProvider: createOpenAiCopilotProvider })));
