import { randomUUID } from "node:crypto";
import type { QueueDistribution } from "@atende/shared/contracts/http/service-levels";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { isAdmin } from "@atende/shared/domain/permissions/permissions";
import { rankAgents, type AgentSlot } from "@atende/shared/domain/service-levels/distribution";
import { AppError } from "../../platform/errors";
import type { Logger } from "../../platform/logger";
import { recordAssignment, type Metrics } from "../../platform/metrics";
import type { InboxService } from "../inbox/inbox.service";
import type { AgentSlotReads } from "../presence/presence.ports";
import type { DistributionRepository } from "./distribution.repository";

/** How many waiting tickets of one queue a run looks at (the rest wait for the next run). */
export const RUN_BATCH = 200;
/** A queue's run lease: long enough for a pass over RUN_BATCH tickets, short enough that a crashed run is replaced soon. */
const LEASE_MS = 60_000;
/** Passes one lease holder makes for runs asked for meanwhile before handing over (a new job). */
const MAX_PASSES = 20;

export type DistributionUsers = { listByCompany(companyId: number): Promise<{ id: number; queueIds: number[] }[]> };
/** What a run was asked for: a queue got a waiting ticket, an attendant got a free slot, or everything (tick). */
export type RunHint = { queueId?: number; userId?: number; reconcile?: boolean };

/**
 * Automatic distribution per queue (issue 13 items 2-3, docs/adr/0032). A run reads the queue's waiting tickets
 * (oldest first) and its attendants (status, capacity, open count, last assignment), ranks them with the shared
 * `rankAgents` and assigns through the inbox (`distribution.assign`): one transaction holding the ticket's
 * accept (conditioned on it still waiting) and the attendant's slot (conditioned on online and under capacity).
 * A lost slot tries the next attendant; a lost ticket moves on. Runs are triggered by events (a ticket waiting,
 * a slot freed, an attendant online) through the jobs queue, and by the minute tick as a safety net.
 */
export const createDistributionService = (deps: {
  repo: DistributionRepository;
  agents: AgentSlotReads;
  users: DistributionUsers;
  inbox: Pick<InboxService, "distribution">;
  queueExists: (companyId: number, queueId: number) => Promise<boolean>;
  defaultCapacity: (companyId: number) => Promise<number>;
  /** a run for the queue right after its settings change */
  requestRun: (companyId: number, hint: RunHint) => Promise<unknown>;
  metrics: Metrics;
  logger: Logger;
  clock: () => Date;
}) => {
  const { repo, agents, users, inbox, metrics, logger, clock } = deps;
  const assertQueue = async (auth: AuthContext, queueId: number) => {
    if (!(await deps.queueExists(auth.companyId, queueId))) throw new AppError("ERR_NO_QUEUE_FOUND");
  };

  /** The counter set to the tickets the attendant really owns (only if nothing moved it meanwhile; a few tries). */
  const reconcile = async (companyId: number, userId: number) => {
    for (let i = 0; i < 3; i++) {
      const a = await agents.get(companyId, userId);
      const open = await inbox.distribution.countOpen(companyId, userId);
      if (a.open === open || (await agents.reconcile(companyId, userId, open, a.seq))) return;
    }
  };

  const service = {
    async getSettings(auth: AuthContext, queueId: number): Promise<QueueDistribution> {
      await assertQueue(auth, queueId);
      return repo.get(auth.companyId, queueId);
    },
    async saveSettings(auth: AuthContext, queueId: number, input: QueueDistribution): Promise<QueueDistribution> {
      if (!isAdmin(auth.user.profile)) throw new AppError("ERR_NO_PERMISSION");
      await assertQueue(auth, queueId);
      await repo.save(auth.companyId, queueId, input, clock());
      if (input.mode !== "off") await deps.requestRun(auth.companyId, { queueId });
      return input;
    },

    /** Assigns what can be assigned now; returns how many tickets got an owner. */
    async run(companyId: number, hint: RunHint = {}): Promise<number> {
      const on = await repo.queuesOn(companyId);
      if (!on.length) return 0;
      if (hint.userId && hint.reconcile) await reconcile(companyId, hint.userId);
      const [settings, people, records, defCap] = await Promise.all([repo.list(companyId), users.listByCompany(companyId), agents.list(companyId), deps.defaultCapacity(companyId)]);
      const byUser = new Map(records.map((a) => [a.userId, a]));
      const slots: AgentSlot[] = people.map((u) => {
        const a = byUser.get(u.id);
        return { userId: u.id, status: a?.status ?? "offline", capacity: a?.capacity ?? defCap, openTickets: Math.max(0, a?.open ?? 0), lastAssignedAt: a?.lastAssignedAt ?? null, queueIds: u.queueIds };
      });
      const wanted = hint.queueId ? [hint.queueId] : hint.userId ? (people.find((u) => u.id === hint.userId)?.queueIds ?? []) : on;
      let assigned = 0;
      /** the attendants' status and slots as stored now (other runs assign too): ranking on fresh values spreads evenly */
      const refresh = async () => {
        const fresh = new Map((await agents.list(companyId)).map((a) => [a.userId, a]));
        for (const s of slots) {
          const a = fresh.get(s.userId);
          if (a) Object.assign(s, { status: a.status, capacity: a.capacity ?? defCap, openTickets: Math.max(0, a.open), lastAssignedAt: a.lastAssignedAt });
        }
      };
      /** One pass over the queue's waiting tickets, oldest first. */
      const pass = async (queueId: number, s: QueueDistribution) => {
        let done = 0;
        const inQueue = slots.filter((a) => a.queueIds.includes(queueId));
        await refresh();
        if (!rankAgents(s.mode, queueId, inQueue).length) return 0;
        const waiting = await inbox.distribution.pendingOfQueue(companyId, queueId, RUN_BATCH);
        // the queue's lease makes this run the only one assigning in it: counts kept here stay right (a manual accept
        // or close meanwhile is caught by the slot's condition, then the values are read again)
        const later: Promise<unknown>[] = [];
        for (const t of waiting) {
          if (!rankAgents(s.mode, queueId, inQueue).length) break; // nobody free in this queue: the rest wait
          const now = clock();
          let prefer: number | null = null;
          let onlyPreferred = false;
          if (s.ownAttendant) {
            prefer = await inbox.distribution.lastOwner(companyId, t.contactId, t.id);
            const own = prefer === null ? undefined : inQueue.find((a) => a.userId === prefer);
            // within N minutes of queueing the ticket waits for its own attendant (if they still serve this queue)
            onlyPreferred = !!own && now.getTime() < new Date(t.queuedAt).getTime() + s.ownAttendantMinutes * 60_000;
          }
          let ranked = rankAgents(s.mode, queueId, inQueue, prefer);
          if (onlyPreferred) ranked = ranked.filter((a) => a.userId === prefer);
          for (const a of ranked) {
            const outcome = await inbox.distribution.assign(companyId, t.id, queueId, a.userId, a.capacity, later);
            if (outcome === "assigned") {
              done++;
              a.openTickets++;
              a.lastAssignedAt = `${now.toISOString()}#${String(t.id).padStart(10, "0")}`;
              recordAssignment(metrics, onlyPreferred || a.userId === prefer ? "own-attendant" : "automatic");
              break;
            }
            if (outcome === "taken") break;
            await refresh(); // "full": paused, offline or at capacity meanwhile
          }
        }
        // the assignments' events and customer notices (a failed one is logged: the ticket is assigned all the same)
        for (const r of await Promise.allSettled(later)) if (r.status === "rejected") logger.warn("distribution: publishing an assignment failed", { companyId, err: String(r.reason) });
        return done;
      };
      for (const queueId of wanted) {
        const s = settings.find((x) => x.queueId === queueId);
        if (!s || s.mode === "off" || !on.includes(queueId)) continue;
        // one run per queue at a time: a run asked for meanwhile marks the lease and the holder passes once more
        const owner = randomUUID();
        if (!(await repo.acquire(companyId, queueId, owner, clock(), LEASE_MS))) continue;
        let passes = 0;
        try {
          do assigned += await pass(queueId, s);
          while (!(await repo.release(companyId, queueId, owner)) && ++passes < MAX_PASSES);
        } catch (err) {
          await repo.release(companyId, queueId, owner, true).catch(() => undefined);
          throw err;
        }
        if (passes >= MAX_PASSES) {
          await repo.release(companyId, queueId, owner, true);
          await deps.requestRun(companyId, { queueId }); // still asked for: another instance's turn
        }
      }
      if (assigned) logger.debug("distribution: assigned", { companyId, assigned });
      return assigned;
    },

    /** The minute tick: every company with distribution on gets a run (own-attendant waits end, missed events). */
    async tick(): Promise<void> {
      for (const companyId of await repo.companies()) {
        try {
          await service.run(companyId);
        } catch (err) {
          logger.warn("distribution tick failed", { companyId, err: String(err) });
        }
      }
    },
  };
  return service;
};
export type DistributionService = ReturnType<typeof createDistributionService>;
