import { handle } from "hono/aws-lambda";
import { loadConfig } from "../platform/config";
import { createContainer } from "../app/container";
import { createHttpApp } from "../app/http-app";

/** API Gateway HTTP API -> the Hono app. */
export const handler = handle(createHttpApp(createContainer(loadConfig())));
