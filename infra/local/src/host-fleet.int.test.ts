import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./platform";

/**
 * `SESSION_HOSTS=N npm start` (issue 29 "Locally, the same shape"): N session-host processes, each its own pid, id
 * host-<n>. Killing one (SIGKILL) never takes the platform down: the runner notices, logs and starts it again, the
 * API keeps answering, and the connection it held comes back on a host; what a customer sent meanwhile is delivered.
 */
let platform: Platform;
const logged: string[] = [];

beforeAll(async () => {
  platform = await startPlatform({
    sessionHosts: 2,
    logLevel: "warn",
    tick: false,
    env: { BCRYPT_ROUNDS: "4" },
    hostStdio: "ignore",
    hostEnv: { LEASE_TTL_MS: "3000", LEASE_HEARTBEAT_MS: "1000", LEASE_SCAN_MS: "1000", LOG_LEVEL: "silent" },
  });
  const warn = platform.container.logger.warn.bind(platform.container.logger);
  platform.container.logger.warn = (msg: string, fields?: Record<string, unknown>) => {
    logged.push(`${msg} ${JSON.stringify(fields ?? {})}`);
    warn(msg, fields);
  };
}, 180_000);
afterAll(async () => {
  await platform?.stop();
});

const until = async <T>(what: string, fn: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe("session hosts as processes", () => {
  it("runs two hosts with their own pids; a killed one is restarted while the platform and its connection carry on", { timeout: 180_000 }, async () => {
    const hosts = platform.hosts.hosts();
    expect(hosts.map((h) => h.hostId)).toEqual(["host-1", "host-2"]);
    expect(new Set(hosts.map((h) => h.pid)).size).toBe(2);
    expect(hosts.every((h) => h.pid && h.pid !== process.pid)).toBe(true);

    // the demo company's connection, linked on whichever host took it
    const conn = await until("the demo connection's QR", () => platform.network.connections().find((c) => c.status === "qrcode"), Boolean);
    const ref = { companyId: conn!.companyId, whatsappId: conn!.whatsappId };
    await platform.network.scan(ref, "5511900002222");
    await until("connected", () => platform.network.connections().find((c) => c.companyId === ref.companyId)?.status, (s) => s === "CONNECTED");

    // kill both hosts in turn, so the one holding it is certainly killed
    for (const n of [1, 2]) {
      const pid = platform.hosts.hosts()[n - 1]!.pid;
      platform.hosts.signal(n, "SIGKILL");
      const again = await platform.hosts.restarted(n, pid);
      expect(again).not.toBe(pid);
      // the API answers all along
      expect((await fetch(`${platform.url}/api/health`)).status).toBeLessThan(500);
      await platform.network.customerSend("5511977770000", ref, { type: "text", body: `enquanto o host-${n} reiniciava` });
      await until(`the connection back after host-${n}'s kill`, () => platform.network.connections().find((c) => c.companyId === ref.companyId), (c) => c?.status === "CONNECTED" && c.pending === 0);
    }
    expect(logged.filter((l) => l.startsWith("session host exited; starting it again")).length).toBe(2);
    expect(platform.hosts.hosts().map((h) => h.restarts)).toEqual([1, 1]);
  });
});
