import { describe, expect, it } from "vitest";
import type { Lease, LeaseRepository } from "../leases/lease.repository";
import type { RegistryItem } from "../leases/host-registry";
import { createLogger } from "../platform/logger";
import type { FleetMember, FleetView } from "./fleet";
import { createOrphanScan } from "./fleet-scan";

/**
 * The fleet watch (docs/adr/0093): the registry every tick, the lease partition only when there is something to take
 * (a dead host not yet emptied, a draining host's hand-overs, claims still settling) or when the full scan is due.
 */
const item = (hostId: string, lastHeartbeatAt: number, draining = false): RegistryItem => ({ hostId, pid: 1, capacity: 100, draining, lastHeartbeatAt, connections: [] });
const lease = (whatsappId: number, owner?: string): Lease => ({ companyId: 1, whatsappId, channel: "simulator", owner, fence: 1, expiresAt: 0, wanted: true });

const setup = (opts: { view: () => FleetView; orphans: () => Lease[] }) => {
  let t = 100_000;
  const listings: number[] = [];
  const taken: number[] = [];
  const fleet = { survey: async () => opts.view(), forget: async () => undefined } as unknown as FleetMember;
  const leases = {
    listOrphans: async () => (listings.push(t), opts.orphans()),
    markWaiting: async () => false,
  } as unknown as LeaseRepository;
  const tick = createOrphanScan({
    hostId: "host-b",
    capacity: 100,
    fleet,
    leases,
    publisher: { publish: async () => undefined },
    log: createLogger("silent"),
    now: () => t,
    load: () => taken.length,
    skip: () => false,
    active: () => true,
    takeOver: async (id) => (taken.push(id.whatsappId), true),
    staleForgetMs: 60_000,
    scanEveryMs: 4_000,
  });
  return { tick, listings, taken, advance: (ms: number) => (t += ms), now: () => t };
};

describe("the fleet watch", () => {
  it("lists the leases only every full scan while the registry shows nothing to take", async () => {
    const s = setup({ view: () => ({ hosts: [item("host-a", s.now()), item("host-b", s.now())], others: [{ hostId: "host-a", load: 0, capacity: 100 }], dead: [] }), orphans: () => [] });
    for (let i = 0; i < 9; i++) {
      await s.tick();
      s.advance(1_000);
    }
    // ticks at 0..8 s: listings at 0, 4 and 8 s
    expect(s.listings.map((x) => x - 100_000)).toEqual([0, 4_000, 8_000]);
  });

  it("a draining host's hand-overs are listed and taken at the next tick, not at the next full scan", async () => {
    let draining = false;
    let released: Lease[] = [];
    const s = setup({
      view: () => ({ hosts: [item("host-a", s.now(), draining), item("host-b", s.now())], others: [], dead: [] }),
      orphans: () => released.filter((l) => !s.taken.includes(l.whatsappId)),
    });
    await s.tick(); // the full scan at start
    s.advance(1_000);
    draining = true;
    released = [lease(1), lease(2)];
    await s.tick();
    expect(s.listings).toHaveLength(2);
    expect(s.taken.sort()).toEqual([1, 2]);
  });

  it("a dead host's connections are listed at once and every tick until none is left, then only at the full scan", async () => {
    const left = [lease(1, "host-a"), lease(2, "host-a"), lease(3, "host-a")];
    const s = setup({
      view: () => ({ hosts: [item("host-a", 0), item("host-b", s.now())], others: [], dead: ["host-a"] }),
      orphans: () => left.filter((l) => !s.taken.includes(l.whatsappId)),
    });
    await s.tick();
    expect(s.taken.sort()).toEqual([1, 2, 3]);
    for (let i = 0; i < 3; i++) {
      s.advance(1_000);
      await s.tick();
    }
    // the second listing found nothing of host-a: settled; the next listing is the full scan's
    expect(s.listings.map((x) => x - 100_000)).toEqual([0, 1_000]);
  });
});
