import type { SessionHostConnection } from "@atende/shared/contracts/http/session-hosts";
import type { LeaseRepository } from "../leases/lease.repository";
import type { SessionIdentity } from "../providers/provider.port";
import type { Logger } from "../platform/logger";
import type { FleetMember } from "./fleet";

/** sessions handed over at once */
const DRAIN_CONCURRENCY = 20;

/**
 * SIGTERM (deploys, scale-in; docs/adr/0070): the host says it is draining (registry: no host counts on it
 * for room), stops taking connections and receiving commands (a long poll in flight returns within
 * COMMAND_WAIT_SECONDS), lets in-flight command groups and starts finish — its sessions stay up meanwhile, their
 * lease and registry heartbeats going on —
 * then hands each lease over once the session's socket is closed and its auth writes are done (released with the
 * marker, never left to expire), so another host takes it at its next scan; last it leaves the registry.
 * Bounded by `timeoutMs` (ECS stopTimeout is a little longer): what is left then is taken as after a crash.
 */
export const createDrain = <S>(deps: {
  fleet: FleetMember;
  log: Logger;
  now: () => number;
  timeoutMs: number;
  connections: () => SessionHostConnection[];
  stopTaking: () => Promise<void>;
  sessions: () => S[];
  handOver: (session: S) => Promise<void>;
  /** waits (bounded) until another host holds the batch just handed over */
  pickedUp?: (batch: S[]) => Promise<void>;
  /** after the hand-over: no more lease or registry heartbeats (they went on until then, so nobody took over) */
  stopHeartbeats: () => void;
}) => {
  const run = async () => {
    const started = deps.now();
    await deps.fleet.drain(deps.connections());
    await deps.stopTaking();
    const queue = deps.sessions();
    const count = queue.length;
    // in batches, each released once the previous one was picked up: a session is down only from its own release to
    // its pickup, not while it waits behind the whole host's hand-overs in the other hosts' claims (docs/adr/0093)
    while (queue.length > 0) {
      const batch = queue.splice(0, DRAIN_CONCURRENCY);
      await Promise.all(batch.map((s) => deps.handOver(s).catch((err: unknown) => deps.log.warn("session not handed over", { err: String(err) }))));
      if (queue.length > 0) await deps.pickedUp?.(batch).catch(() => undefined);
    }
    deps.stopHeartbeats();
    await deps.fleet.leave();
    deps.log.info("drained", { sessions: count, ms: deps.now() - started });
  };
  let draining: Promise<void> | undefined;
  return (): Promise<void> => {
    draining ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          deps.log.warn("drain timed out: the remaining leases will be taken as after a crash");
          resolve();
        }, deps.timeoutMs);
      });
      await Promise.race([run(), timeout]).finally(() => clearTimeout(timer));
    })();
    return draining;
  };
};

/** the most a drain waits for one batch's pickup before it hands over the next anyway */
const PICKUP_WAIT_MS = 3_000;

/** Until every lease of `ids` has an owner again (another host took it), or PICKUP_WAIT_MS passed. */
export const waitPickedUp = async (leases: Pick<LeaseRepository, "get">, ids: SessionIdentity[], now: () => number) => {
  const until = now() + PICKUP_WAIT_MS;
  for (let left = ids; left.length > 0 && now() < until; ) {
    await new Promise((r) => setTimeout(r, 250));
    const owners = await Promise.all(left.map((id) => leases.get(id).then((l) => l?.owner)));
    left = left.filter((_, i) => !owners[i]);
  }
};
