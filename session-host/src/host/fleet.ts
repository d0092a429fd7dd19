import type { SessionHostConnection } from "@atende/shared/contracts/http/session-hosts";
import type { HostRegistry, RegistryItem } from "../leases/host-registry";
import type { Logger } from "../platform/logger";

export type HostLoad = { hostId: string; load: number; capacity: number };

/**
 * How many of `orphans` this host should claim so the fleet fills evenly (docs/adr/0070): the hosts are filled
 * like water, the least-loaded first, each to its capacity at most, up to the lowest level that places every
 * orphan there is room for. `waiting`: orphans no host has room for (WAITING_CAPACITY). All hosts compute the same
 * plan from the registry, so each claims its own share; a lease is acquired conditionally, so two hosts claiming
 * the same connection cannot both get it.
 */
export const planClaims = (me: HostLoad, others: readonly HostLoad[], orphans: number): { quota: number; waiting: number } => {
  const hosts = [me, ...others];
  const room = hosts.reduce((s, h) => s + Math.max(0, h.capacity - h.load), 0);
  const waiting = Math.max(0, orphans - room);
  const toPlace = orphans - waiting;
  if (toPlace <= 0) return { quota: 0, waiting };
  const placed = (level: number) => hosts.reduce((s, h) => s + Math.max(0, Math.min(h.capacity, level) - h.load), 0);
  let level = Math.min(...hosts.map((h) => h.load));
  while (placed(level) < toPlace) level++;
  return { quota: Math.max(0, Math.min(me.capacity, level) - me.load), waiting };
};

/**
 * `planClaims`, and where this host's share starts in the orphans' common order: hosts claim consecutive slices in
 * host-id order, so hosts that plan from the same registry read claim disjoint connections and cover them all in
 * one round (a random offset each made hosts collide on part of the orphans and leave others for a later scan).
 */
export const planShare = (me: HostLoad, others: readonly HostLoad[], orphans: number): { offset: number; quota: number; waiting: number } => {
  const { quota, waiting } = planClaims(me, others, orphans);
  const offset = others
    .filter((h) => h.hostId < me.hostId)
    .reduce((sum, h) => sum + planClaims(h, [me, ...others.filter((o) => o !== h)], orphans).quota, 0);
  return { offset, quota, waiting };
};

/** what a host reads of the fleet before it claims: live hosts that take connections, and dead hosts' ids */
export type FleetView = { others: HostLoad[]; dead: string[]; hosts: RegistryItem[] };

/**
 * Before its lease or registry heartbeat goes stale for others, a host stops acting for its connections this much
 * earlier (clock skew between hosts, a request in flight): a second, or a quarter of short test periods.
 */
export const staleMargin = (periodMs: number) => Math.min(1_000, Math.floor(periodMs / 4));

/**
 * This host's membership of the fleet: its registry heartbeat and what it reads of the others.
 * - `beat` rewrites its registry item; `validUntil` is when others may start taking its connections (the start of
 *   the last successful write + the stale time, less a margin for clock skew): past it the host neither publishes
 *   nor runs commands for its connections.
 * - `survey` judges other hosts dead (stale heartbeat) only while this host's own heartbeat is healthy, and not
 *   in the first stale period after it recovered from failing writes (a table outage makes every host look stale).
 */
export const createFleetMember = (deps: {
  registry: HostRegistry;
  hostId: string;
  pid: number;
  capacity: number;
  staleMs: number;
  now: () => number;
  logger: Logger;
}) => {
  const { registry, hostId, staleMs, now } = deps;
  let lastWriteAt: number | undefined;
  let recoveredAt: number | undefined;
  let failing = false;
  let draining = false;

  return {
    get draining() {
      return draining;
    },
    async beat(connections: SessionHostConnection[]): Promise<boolean> {
      const at = now();
      try {
        await registry.put({ hostId, pid: deps.pid, capacity: deps.capacity, draining, lastHeartbeatAt: at, connections });
        if (failing || (lastWriteAt !== undefined && at - lastWriteAt > staleMs)) recoveredAt = at;
        failing = false;
        lastWriteAt = Math.max(lastWriteAt ?? 0, at);
        return true;
      } catch (err) {
        failing = true;
        deps.logger.warn("registry heartbeat failed", { err: String(err) });
        return false;
      }
    },
    validUntil: () => (lastWriteAt === undefined ? 0 : lastWriteAt + staleMs - staleMargin(staleMs)),
    async survey(): Promise<FleetView> {
      // the time before the read: a slow answer must not age the heartbeats it carries (a live host judged dead)
      const t = now();
      const hosts = await registry.list();
      const healthy = lastWriteAt !== undefined && t - lastWriteAt < staleMs && (recoveredAt === undefined || t - recoveredAt >= staleMs);
      const others = hosts.filter((h) => h.hostId !== hostId);
      return {
        hosts,
        others: others.filter((h) => !h.draining && t - h.lastHeartbeatAt <= staleMs).map((h) => ({ hostId: h.hostId, load: h.connections.length, capacity: h.capacity })),
        dead: healthy ? others.filter((h) => t - h.lastHeartbeatAt > staleMs).map((h) => h.hostId) : [],
      };
    },
    async drain(connections: SessionHostConnection[]) {
      draining = true;
      await this.beat(connections);
    },
    /** removes a dead host's registry item (its leases have expired; nothing more to take from it) */
    async forget(deadHostId: string) {
      await registry.remove(deadHostId).catch(() => undefined);
    },
    async leave() {
      await registry.remove(hostId).catch((err: unknown) => deps.logger.warn("registry item not removed", { err: String(err) }));
    },
  };
};
export type FleetMember = ReturnType<typeof createFleetMember>;
