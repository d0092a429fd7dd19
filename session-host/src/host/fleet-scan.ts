import { randomUUID } from "node:crypto";
import { METRIC } from "@atende/shared/contracts/metric-names";
import type { Channel, Lease, LeaseRepository } from "../leases/lease.repository";
import type { HostMetrics } from "../platform/host-metrics";
import type { Logger } from "../platform/logger";
import type { SessionIdentity } from "../providers/provider.port";
import type { InboundPublisher } from "../queues/inbound-publisher";
import { planShare, type FleetMember } from "./fleet";

/**
 * Takeovers one host runs at once (acquire, replay the spill, open the socket). Bounded: a Baileys socket's start
 * (noise handshake, pre-keys) costs CPU, and 100 at once on a small task would slow every session it already holds.
 */
export const TAKEOVER_CONCURRENCY = 32;
/** quick listings in a row while placeable orphans remain unclaimed (views of the fleet still settling) */
const MAX_QUICK_ROUNDS = 10;
const keyOf = (id: SessionIdentity) => `${id.companyId}:${id.whatsappId}`;

/** Waiting the longest first, then by key: every host orders the orphans alike, so they agree on which wait. */
const byPriority = (a: Lease, b: Lease) => (a.waitingSince ?? Infinity) - (b.waitingSince ?? Infinity) || keyOf(a).localeCompare(keyOf(b));

/**
 * The fleet watch (every FLEET_WATCH_MS; docs/adr/0070, 0093). Each tick reads the registry (one small query); the
 * lease partition — the expensive read — is listed only when there is something to take:
 * - a host judged dead whose connections were not all taken yet (kill -9: taken as soon as its heartbeat is stale),
 * - a host draining (its hand-overs are picked up within a tick, not at the next full scan),
 * - the last listing left placeable orphans (claims still settling between hosts),
 * - and every LEASE_SCAN_MS anyway: unowned connections (a start received by a full host), expired leases.
 * A listing claims this host's share of the orphans (`planShare`: the least-loaded hosts first, none over its
 * capacity, each host its own slice in host-id order, so hosts claiming at once do not collide). What no host has
 * room for is marked WAITING_CAPACITY once (the connection event goes to the functions, the connections page shows
 * it) and counted in SessionsWaitingCapacity (alarm).
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
  /** after this host took connections: rewrite its registry item, so the others plan with its new load */
  claimed?: () => Promise<void>;
  metrics?: HostMetrics;
  /** a dead host's registry item is removed once its leases have surely expired */
  staleForgetMs: number;
  /** the full listing's period (LEASE_SCAN_MS): a tick lists the leases at least this often */
  scanEveryMs: number;
}) => {
  const { log, now, leases } = deps;
  let lastListing = -Infinity;
  let quickRounds = 0;
  /** dead hosts none of whose connections were listed any more: no quick listing for them */
  const settled = new Set<string>();

  const claim = async (orphans: Lease[], dead: readonly string[]) => {
    let took = 0;
    const next = async (): Promise<void> => {
      const lease = orphans.shift();
      if (!lease || !deps.active()) return;
      const identity = { companyId: lease.companyId, whatsappId: lease.whatsappId };
      try {
        if (await deps.takeOver(identity, lease.channel, dead)) {
          took++;
          log.info("took over connection", { ...identity, from: lease.owner ?? lease.handedOverBy });
        }
      } catch (err) {
        log.warn("takeover failed", { ...identity, err: String(err) });
      }
      return next();
    };
    await Promise.all(Array.from({ length: TAKEOVER_CONCURRENCY }, next));
    return took;
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
      for (const id of settled) if (!view.dead.includes(id)) settled.delete(id);
      const handingOver = view.hosts.some((h) => h.draining && h.hostId !== deps.hostId);
      const unsettledDead = view.dead.some((id) => !settled.has(id));
      const quick = quickRounds > 0 && quickRounds <= MAX_QUICK_ROUNDS;
      if (!handingOver && !unsettledDead && !quick && now() - lastListing < deps.scanEveryMs) return;
      lastListing = now();
      const orphans = (await leases.listOrphans(now(), deps.hostId, view.dead)).filter((l) => !deps.skip(keyOf(l))).sort(byPriority);
      const load = deps.load();
      const { offset, quota, waiting } = planShare({ hostId: deps.hostId, load, capacity: deps.capacity }, view.others, orphans.length);
      deps.metrics?.gauge(METRIC.sessionsWaitingCapacity, waiting);
      deps.metrics?.gauge(METRIC.sessionsPerHost, load + waiting / (view.others.length + 1));
      const placeable = orphans.slice(0, orphans.length - waiting);
      quickRounds = placeable.length > 0 ? quickRounds + 1 : 0;
      // a dead host none of whose connections is left to place (taken, or waiting for room) needs no quick listing
      for (const id of view.dead) if (!placeable.some((l) => l.owner === id)) settled.add(id);
      // this host's own slice (hosts in id order), so hosts claiming at once do not collide
      const took = await claim(placeable.slice(offset, offset + quota), view.dead);
      if (took > 0) await deps.claimed?.();
      // only a full host marks: one with room left would rather have claimed (its view may just be behind)
      if (waiting > 0 && deps.load() >= deps.capacity) await markWaiting(orphans.slice(orphans.length - waiting));
      for (const h of view.hosts)
        if (view.dead.includes(h.hostId) && now() - h.lastHeartbeatAt > deps.staleForgetMs && !orphans.some((l) => l.owner === h.hostId)) await deps.fleet.forget(h.hostId);
    } catch (err) {
      log.warn("orphan scan failed", { err: String(err) });
    }
  };
};
