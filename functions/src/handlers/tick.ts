import middy from "@middy/core";
import { runTick } from "../app/tick";
import { loadConfig } from "../platform/config";
import { createContainer } from "../app/container";

// no heavy ports (app/lambda-roles.ts)
const container = createContainer(loadConfig());

/** EventBridge rate(1 minute) -> the due jobs. */
export const handler = middy(async () => {
  await runTick(container);
});
