import type { TestProject } from "vitest/node";
import "../../functions/src/testing/provided-context";
import { startPlatform } from "../../infra/local/src/platform";


/**
 * The whole local platform, in memory, seeded with the demo data, for the e2e run. The web app must be built
 * first (scripts/e2e.sh does it). E2E_BASE_URL points the tests at an already running platform instead.
 */
export default async function setup(project: TestProject) {
  if (process.env.E2E_BASE_URL) {
    project.provide("baseUrl", process.env.E2E_BASE_URL);
    return;
  }
  // A 5 s tick: scheduled messages and campaigns are picked up within seconds of their time, not a minute.
  const platform = await startPlatform({ logLevel: "warn", env: { BCRYPT_ROUNDS: "4", AGENT_OFFLINE_GRACE_SECONDS: "5" }, tickIntervalMs: 5_000 });
  project.provide("baseUrl", platform.url);
  project.provide("dynamoEndpoint", platform.dynamo.endpoint);
  project.provide("tableName", platform.env.TABLE_NAME ?? "atende");
  project.provide("platformEnv", platform.env);
  return async () => {
    await platform.stop();
  };
}
