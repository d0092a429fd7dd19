import { Hono } from "hono";

export type HostHealth = {
  running: boolean;
  sessions: number;
  /** when a heartbeat round last showed the host alive (see `heartbeatRoundAlive`) */
  lastHeartbeatAt: number;
  /** sessions whose renewal failed in the last round: reported, never a reason to replace the whole host */
  failingSessions?: number;
};

/**
 * Whether a heartbeat round shows the host alive: the loop ran and the table answered it. One session's failed
 * renewal (a throttled item, a conflict) is that session's trouble — its lease will lapse and another host
 * takes it — not a reason for ECS to kill every other session of the host. Only a round where every renewal
 * failed (the table unreachable) does not count; a round with no session counts (the loop itself is alive).
 */
export const heartbeatRoundAlive = (round: { renewed: number; failed: number }) => round.failed === 0 || round.renewed > 0;

/**
 * GET /health of the session host (the ECS container health check calls it inside the task): 200 while the lease
 * heartbeat shows the host alive, 503 when it has not for `staleAfterMs` (the table refuses or the loop stalled),
 * so ECS replaces the task. Reports the sessions it drives and those failing their renewal.
 */
export const createHealthHttp = (health: () => HostHealth, staleAfterMs: number, now: () => number = Date.now) => {
  const app = new Hono();
  app.get("/health", (c) => {
    const h = health();
    const heartbeatAgeMs = now() - h.lastHeartbeatAt;
    const ok = h.running && heartbeatAgeMs <= staleAfterMs;
    return c.json(
      { status: ok ? "ok" : "degraded", running: h.running, sessions: h.sessions, heartbeatAgeMs, ...(h.failingSessions ? { failingSessions: h.failingSessions } : {}) },
      ok ? 200 : 503,
    );
  });
  return app;
};
