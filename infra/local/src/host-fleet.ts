import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

/**
 * The local runner's session hosts: `SESSION_HOSTS=N npm start` runs N of them, each its own OS process (its own
 * pid), id `host-<n>`, sharing the connections through the leases as the Fargate tasks do in AWS. The runner
 * watches them: a host that dies (crash, `kill -9`) is logged and started again after `restartDelayMs`; the
 * platform stays up meanwhile (its connections move to the other hosts through the leases, and what customers
 * send waits in the simulated network). `SIGTERM` to one host drains it (ADR 0073).
 */
export type HostProcess = { hostId: string; pid: number | undefined; child: ChildProcess; restarts: number };

export type HostFleet = {
  hosts: () => { hostId: string; pid: number | undefined; restarts: number }[];
  /** signals host `n` (1-based); the runner restarts it once it exited */
  signal: (n: number, signal: NodeJS.Signals) => void;
  /** resolves once host `n` runs again under a new pid (after a kill or a drain) */
  restarted: (n: number, previousPid: number | undefined, timeoutMs?: number) => Promise<number>;
  /** resolves once host `n` exited */
  exited: (n: number) => Promise<void>;
  /** starts host `n` again when it is down (with `autoRestart: false`) */
  start: (n: number) => void;
  /** host `n`'s memory as it reports it (heap, external, RSS in bytes), over the IPC channel */
  memory: (n: number) => Promise<NodeJS.MemoryUsage>;
  stop: () => Promise<void>;
};

export const startHostFleet = (opts: {
  count: number;
  env: Record<string, string>;
  repoRoot: string;
  log: (msg: string, fields: Record<string, unknown>) => void;
  restartDelayMs?: number;
  /** false: a host that exits stays down until `start(n)` (the bench measures takeovers that way) */
  autoRestart?: boolean;
  /** where the hosts' output goes: the runner's own (npm start) or nowhere (tests) */
  stdio?: "inherit" | "ignore";
}): HostFleet => {
  const restartDelayMs = opts.restartDelayMs ?? 1_000;
  const entry = join(opts.repoRoot, "infra/local/src/session-host-process.ts");
  const hosts: HostProcess[] = [];
  let stopping = false;
  const timers = new Set<NodeJS.Timeout>();

  const launch = (n: number, restarts: number) => {
    const hostId = `host-${n}`;
    const child = spawn(process.execPath, ["--import", "tsx", entry], {
      cwd: opts.repoRoot,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", ...opts.env, HOST_ID: hostId, SESSION_HOST_ID: hostId },
      stdio: [opts.stdio ?? "inherit", opts.stdio ?? "inherit", opts.stdio ?? "inherit", "ipc"],
    });
    const h: HostProcess = { hostId, pid: child.pid, child, restarts };
    hosts[n - 1] = h;
    child.once("exit", (code, signal) => {
      if (stopping) return;
      if (opts.autoRestart === false) return opts.log("session host exited", { hostId, pid: h.pid, code, signal });
      opts.log("session host exited; starting it again", { hostId, pid: h.pid, code, signal, restartInMs: restartDelayMs });
      const t = setTimeout(() => {
        timers.delete(t);
        if (!stopping) launch(n, restarts + 1);
      }, restartDelayMs);
      timers.add(t);
    });
  };
  for (let n = 1; n <= opts.count; n++) launch(n, 0);

  const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once("exit", () => r())));

  return {
    hosts: () => hosts.map((h) => ({ hostId: h.hostId, pid: h.pid, restarts: h.restarts })),
    signal: (n, signal) => void hosts[n - 1]?.child.kill(signal),
    async restarted(n, previousPid, timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const h = hosts[n - 1];
        if (h && h.pid !== previousPid && h.child.exitCode === null && h.child.signalCode === null) return h.pid!;
        if (Date.now() > end) throw new Error(`host-${n} did not start again`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    exited: (n) => exited(hosts[n - 1]!.child),
    start(n) {
      const h = hosts[n - 1];
      if (h && h.child.exitCode === null && h.child.signalCode === null) return;
      launch(n, (h?.restarts ?? 0) + 1);
    },
    memory: (n) =>
      new Promise((resolve, reject) => {
        const child = hosts[n - 1]?.child;
        if (!child?.connected) return reject(new Error(`host-${n} is not running`));
        const timer = setTimeout(() => reject(new Error(`host-${n} did not report its memory`)), 10_000);
        const onMessage = (m: unknown) => {
          if (typeof m !== "object" || m === null || !("memory" in m)) return;
          clearTimeout(timer);
          child.off("message", onMessage);
          resolve((m as { memory: NodeJS.MemoryUsage }).memory);
        };
        child.on("message", onMessage);
        child.send("memory");
      }),
    async stop() {
      stopping = true;
      timers.forEach(clearTimeout);
      await Promise.all(
        hosts.map(async (h) => {
          h.child.kill("SIGTERM");
          const killer = setTimeout(() => h.child.kill("SIGKILL"), 35_000);
          await exited(h.child);
          clearTimeout(killer);
        }),
      );
    },
  };
};
