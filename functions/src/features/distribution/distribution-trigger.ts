import type { JobQueue } from "../../platform/queues/jobs.port";
import type { TicketSnapshot } from "../inbox/inbox-ports";
import type { DistributionRepository } from "./distribution.repository";
import type { RunHint } from "./distribution.service";

export const DISTRIBUTION_JOB = "distribution.run";

const CHOOSING = new Set(["queues", "options"]);
const waiting = (t: TicketSnapshot | null) => !!t && t.status === "pending" && t.userId === null && t.queueId !== null && !t.isGroup && !CHOOSING.has(t.bot.stage);
const ownedOpen = (t: TicketSnapshot | null) => (t && t.status === "open" ? t.userId : null);

/**
 * When a distribution run is due (docs/adr/0032), decided from events and queued as a job, so it runs after the
 * change that caused it has been published and on whichever instance takes the job: a ticket starts waiting in a
 * queue, an attendant's open ticket closes / is transferred / is returned, an attendant comes online or gets more
 * capacity. Companies with no queue on get no job (one read).
 */
export const createDistributionTrigger = (deps: { repo: Pick<DistributionRepository, "queuesOn">; jobs: JobQueue }) => {
  const request = async (companyId: number, hint: RunHint) => {
    await deps.jobs.enqueue({ type: "feature", companyId, name: DISTRIBUTION_JOB, payload: hint });
  };
  return {
    request,
    /** inbox ticket-change listener */
    async ticketChanged(before: TicketSnapshot | null, after: TicketSnapshot): Promise<void> {
      const queued = waiting(after) && !(waiting(before) && before!.queueId === after.queueId);
      const freed = ownedOpen(before) !== null && ownedOpen(before) !== ownedOpen(after) ? ownedOpen(before) : null;
      if (!queued && freed === null) return;
      const on = await deps.repo.queuesOn(after.companyId);
      if (!on.length) return;
      if (queued && on.includes(after.queueId!)) await request(after.companyId, { queueId: after.queueId! });
      if (freed !== null) await request(after.companyId, { userId: freed });
    },
    /** presence listener: online again, or more capacity */
    async agentAvailable(companyId: number, userId: number): Promise<void> {
      if ((await deps.repo.queuesOn(companyId)).length) await request(companyId, { userId, reconcile: true });
    },
  };
};
export type DistributionTrigger = ReturnType<typeof createDistributionTrigger>;
