import { randomUUID } from "node:crypto";
import { METRIC } from "@atende/shared/contracts/metric-names";
import type { Channel, Lease, LeaseRepository } from "../leases/lease.repository";
import type { HostMetrics } from "../platform/host-metrics";
import type { Logger } from "../platform/logger";
import type { SessionIdentity } from "../providers/provider.port";
import type { InboundPublisher } from "../queues/inbound-publisher";
import { planClaims, type FleetMember } from "./fleet";

const TAKEOVER_CONCURRENCY = 10;
const keyOf = (id: SessionIdentity) => `${id.companyId}:${id.whatsappId}`;

/** Waiting the longest first, then by key: every host orders the orphans alike, so they agree on which wait. */
const byPriority = (a: Lease, b: Lease) => (a.waitingSince ?? Infinity) - (b.waitingSince ?? Infinity) || keyOf(a).localeCompare(keyOf(b));

/**
 * One scan of the fleet (every LEASE_SCAN_MS; docs/adr/0070): reads the registry, lists the connections that should
 * run and have no live holder (unowned, handed over by a drain, lease expired, or held by a host whose registry
 * heartbeat is stale), and claims this host's share of them (`planClaims`: the least-loaded hosts first, none over
 * its capacity). What no host has room for is marked WAITING_CAPACITY once (the connection event goes to the
 * functions, the connections page shows it) and counted in SessionsWaitingCapacity (alarm).
 */
export const createOrphanScan = (deps: {
  hostId: string;
  capacity: number;
  fleet: FleetMember;
  leases: LeaseRepository;
  publisher: InboundPublisher;
  log: Logger;
  now: () => number;
  load: () => number;
  skip: (key: string) => boolean;
  active: () => boolean;
  takeOver: (identity: SessionIdentity, channel: Channel, deadOwners: readonly string[]) => Promise<unknown>;
  metrics?: HostMetrics;
  /** a dead host's registry item is removed once its leases have surely expired */
  staleForgetMs: number;
}) => {
  const { log, now, leases } = deps;
  const claim = async (orphans: Lease[], dead: readonly string[]) => {
    const next = async (): Promise<void> => {
      const lease = orphans.shift();
      if (!lease || !deps.active()) return;
      const identity = { companyId: lease.companyId, whatsappId: lease.whatsappId };
      try {
        if (await deps.takeOver(identity, lease.channel, dead)) log.info("took over connection", { ...identity, from: lease.owner ?? lease.handedOverBy });
      } catch (err) {
        log.warn("takeover failed", { ...identity, err: String(err) });
      }
      return next();
    };
    await Promise.all(Array.from({ length: TAKEOVER_CONCURRENCY }, next));
  };

  const markWaiting = async (waiting: Lease[]) => {
    for (const lease of waiting) {
      if (!(await leases.markWaiting(lease, now()))) continue;
      log.warn("no session host has room: connection waits", { companyId: lease.companyId, whatsappId: lease.whatsappId });
      await deps.publisher.publish({ companyId: lease.companyId, whatsappId: lease.whatsappId, eventId: randomUUID(), type: "connection", status: "WAITING_CAPACITY", qrcode: "", retries: 0 });
    }
  };

  return async () => {
    if (!deps.active()) return;
    try {
      const view = await deps.fleet.survey();
      const orphans = (await leases.listOrphans(now(), deps.hostId, view.dead)).filter((l) => !deps.skip(keyOf(l))).sort(byPriority);
      const load = deps.load();
      const { quota, waiting } = planClaims({ hostId: deps.hostId, load, capacity: deps.capacity }, view.others, orphans.length);
      deps.metrics?.gauge(METRIC.sessionsWaitingCapacity, waiting);
      deps.metrics?.gauge(METRIC.sessionsPerHost, load + waiting / (view.others.length + 1));
      const placeable = orphans.slice(0, orphans.length - waiting);
      // this host's share, from a random part of the placeable ones so hosts claiming at once rarely collide
      const start = placeable.length ? Math.floor(Math.random() * placeable.length) : 0;
      const mine = [...placeable.slice(start), ...placeable.slice(0, start)].slice(0, quota);
      await claim(mine, view.dead);
      // only a full host marks: one with room left would rather have claimed (its view may just be behind)
      if (waiting > 0 && deps.load() >= deps.capacity) await markWaiting(orphans.slice(orphans.length - waiting));
      for (const h of view.hosts)
        if (view.dead.includes(h.hostId) && now() - h.lastHeartbeatAt > deps.staleForgetMs && !orphans.some((l) => l.owner === h.hostId)) await deps.fleet.forget(h.hostId);
    } catch (err) {
      log.warn("orphan scan failed", { err: String(err) });
    }
  };
};
