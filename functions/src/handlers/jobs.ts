import middy from "@middy/core";
import type { SQSEvent } from "aws-lambda";
import { consumeJobs } from "../app/jobs-consumer";
import { loadConfig } from "../platform/config";
import { createContainer } from "../app/container";

const container = createContainer(loadConfig());

/** SQS `jobs` queue -> delayed jobs (partial batch failures on). */
export const handler = middy(async (event: SQSEvent) => consumeJobs(container, event));
