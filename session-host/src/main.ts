import { serve } from "@hono/node-server";
import { createHostRuntime } from "./app";
import { parseHostConfig } from "./config";

/** The session host process (Fargate task): holds sessions until SIGTERM, then hands them over. */
const main = async () => {
  const config = parseHostConfig(process.env);
  const runtime = await createHostRuntime(config);
  await runtime.host.start();
  const server = config.SIMULATOR_PORT ? serve({ fetch: runtime.simulatorHttp.fetch, port: config.SIMULATOR_PORT }) : undefined;
  runtime.logger.info("session host started", { hostId: config.HOST_ID });

  const shutdown = async () => {
    server?.close();
    await runtime.host.stop();
    runtime.network.close();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
