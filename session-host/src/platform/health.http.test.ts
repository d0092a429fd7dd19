import { expect, it } from "vitest";
import { createHealthHttp, type HostHealth } from "./health.http";

it("answers 200 while the heartbeat is fresh, 503 once it is stale or the host stopped", async () => {
  let clock = 100_000;
  const state: HostHealth = { running: true, sessions: 3, lastHeartbeatAt: 95_000 };
  const app = createHealthHttp(() => state, 30_000, () => clock);
  let res = await app.request("/health");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "ok", running: true, sessions: 3, heartbeatAgeMs: 5_000 });
  clock = 126_000;
  res = await app.request("/health");
  expect(res.status).toBe(503);
  expect(await res.json()).toMatchObject({ status: "degraded", heartbeatAgeMs: 31_000 });
  clock = 96_000;
  state.running = false;
  expect((await app.request("/health")).status).toBe(503);
});
