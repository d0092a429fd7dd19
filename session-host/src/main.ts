import { serve } from "@hono/node-server";
import { createHostRuntime } from "./app";
import { parseHostConfig } from "./config";
import { createHealthHttp } from "./platform/health.http";

/** The session host process (Fargate task): holds sessions until SIGTERM, then hands them over. */
const main = async () => {
  const config = parseHostConfig(process.env);
  const runtime = await createHostRuntime(config);
  await runtime.host.start();
  // the ECS container health check (infra/aws/constructs/session-host.ts); stale after 3 missed heartbeats
  const healthPort = Number(process.env.HEALTH_PORT ?? 0);
  const health = healthPort ? serve({ fetch: createHealthHttp(runtime.host.health, config.LEASE_HEARTBEAT_MS * 3 + 5_000).fetch, port: healthPort }) : undefined;
  runtime.logger.info("session host started", { hostId: config.HOST_ID });

  const shutdown = async () => {
    health?.close();
    await runtime.host.stop();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
