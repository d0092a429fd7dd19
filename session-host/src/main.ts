import { serve } from "@hono/node-server";
import { createHostRuntime } from "./app";
import { parseHostConfig } from "./config";
import { createHealthHttp } from "./platform/health.http";
import { resolveHostId } from "./platform/host-identity";

/**
 * The session host process (a Fargate task of the fleet, or one of the local runner's processes): holds its share
 * of the connections until SIGTERM, then drains (hands every lease over) and exits; docs/adr/0070.
 */
const main = async () => {
  const config = parseHostConfig({ ...process.env, SESSION_HOST_ID: await resolveHostId(process.env) });
  const runtime = await createHostRuntime(config);
  await runtime.host.start();
  // the ECS container health check (infra/aws/constructs/session-host.ts); stale after 3 missed heartbeats
  const healthPort = Number(process.env.HEALTH_PORT ?? 0);
  const health = healthPort ? serve({ fetch: createHealthHttp(runtime.host.health, config.LEASE_HEARTBEAT_MS * 3 + 5_000).fetch, port: healthPort }) : undefined;
  runtime.logger.info("session host started", { hostId: config.SESSION_HOST_ID, pid: process.pid, capacity: config.SESSION_HOST_CAPACITY });

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    // bounded by DRAIN_TIMEOUT_MS (ECS stopTimeout is longer, then SIGKILL)
    await runtime.host.stop().catch((err: unknown) => runtime.logger.error("drain failed", { err: String(err) }));
    health?.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown());
  process.on("SIGINT", () => void shutdown());
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
