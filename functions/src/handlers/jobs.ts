import middy from "@middy/core";
import type { SQSEvent } from "aws-lambda";
import { consumeJobs } from "../jobs/jobs-consumer";
import { loadConfig } from "../platform/config";
import { createContainer } from "../platform/container";

const container = createContainer(loadConfig());

/** SQS `jobs` queue -> delayed jobs (partial batch failures on). */
export const handler = middy(async (event: SQSEvent) => consumeJobs(container, event));
