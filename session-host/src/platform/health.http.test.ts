import { expect, it } from "vitest";
import { createHealthHttp, heartbeatRoundAlive, type HostHealth } from "./health.http";

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

it("one session failing its heartbeat keeps the host healthy (only a round where every renewal failed does not count)", async () => {
  expect(heartbeatRoundAlive({ renewed: 9, failed: 1 })).toBe(true);
  expect(heartbeatRoundAlive({ renewed: 0, failed: 0 })).toBe(true);
  expect(heartbeatRoundAlive({ renewed: 0, failed: 3 })).toBe(false);
  const state: HostHealth = { running: true, sessions: 10, lastHeartbeatAt: 99_000, failingSessions: 1 };
  const res = await createHealthHttp(() => state, 30_000, () => 100_000).request("/health");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "ok", running: true, sessions: 10, heartbeatAgeMs: 1_000, failingSessions: 1 });
});
