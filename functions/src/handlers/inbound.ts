import middy from "@middy/core";
import type { SQSEvent } from "aws-lambda";
import { consumeInbound } from "../app/inbound-consumer";
import { loadConfig } from "../platform/config";
import { createContainer } from "../app/container";

// no heavy ports (app/lambda-roles.ts)
const container = createContainer(loadConfig());

/** SQS inbound.fifo -> the features' inbound handlers (partial batch failures on). */
export const handler = middy(async (event: SQSEvent) => consumeInbound(container, event));
