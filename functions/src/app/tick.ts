import type { Container } from "./container";

export type TickJob = { name: string; run: (container: Container, now: Date) => Promise<void> };

/**
 * The minute tick: runs every due job once. Features register their jobs here
 * (scheduled messages, campaign dispatch, ticket expiry, due-date checks, user offline, session leases).
 * A failing job is logged and does not stop the others.
 */
export const TICK_JOBS: TickJob[] = [
  // the inbox module's tick jobs (ticket timers)
  ...["ticket-timers"].map((name): TickJob => ({ name, run: (c, now) => c.modules.inbox.tick.find((j) => j.name === name)!.run(now) })),
  { name: "schedules", run: async (c, now) => void (await c.services.schedulesJob.run(now)) },
  { name: "campaigns", run: async (c, now) => void (await c.services.campaignDispatch.startDue(now)) },
  { name: "invoices", run: async (c, now) => void (await c.services.invoicesJob.run(now)) },
];

export const runTick = async (container: Container, now = container.clock()) => {
  const results = await Promise.allSettled(TICK_JOBS.map((job) => job.run(container, now)));
  results.forEach((r, i) => {
    if (r.status === "rejected") container.logger.error("tick job failed", { job: TICK_JOBS[i]?.name, err: String(r.reason) });
  });
  return results;
};
