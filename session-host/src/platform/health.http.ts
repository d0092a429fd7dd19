import { Hono } from "hono";

export type HostHealth = { running: boolean; sessions: number; lastHeartbeatAt: number };

/**
 * GET /health of the session host (the ECS container health check calls it inside the task): 200 while the lease
 * heartbeat completes, 503 when it has not for `staleAfterMs` (the table refuses or the loop stalled), so ECS
 * replaces the task. Reports the sessions it drives.
 */
export const createHealthHttp = (health: () => HostHealth, staleAfterMs: number, now: () => number = Date.now) => {
  const app = new Hono();
  app.get("/health", (c) => {
    const h = health();
    const heartbeatAgeMs = now() - h.lastHeartbeatAt;
    const ok = h.running && heartbeatAgeMs <= staleAfterMs;
    return c.json({ status: ok ? "ok" : "degraded", running: h.running, sessions: h.sessions, heartbeatAgeMs }, ok ? 200 : 503);
  });
  return app;
};
