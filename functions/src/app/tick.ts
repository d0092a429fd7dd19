import type { Container } from "./container";
import type { FeatureModule, TickJob } from "../platform/modules/feature-module";

/**
 * The minute tick: runs every due job once. Modules register their jobs (`tick` of FeatureModule: scheduled
 * messages, campaign dispatch, invoices, the inbox's ticket timers).
 * A failing job is logged and does not stop the others.
 */
export const tickJobsOf = (container: Container): TickJob[] => {
  const modules: Pick<FeatureModule<unknown>, "tick">[] = Object.values(container.modules).flat();
  const byName = new Map(modules.flatMap((m) => m.tick ?? []).map((job) => [job.name, job]));
  // the order of the jobs as before: ticket timers, schedules, campaigns, invoices
  const ordered = ["ticket-timers", "schedules", "campaigns", "invoices"];
  return [
    ...ordered.flatMap((name) => byName.get(name) ?? []),
    ...[...byName.values()].filter((job) => !ordered.includes(job.name)),
  ];
};

export const runTick = async (container: Container, now = container.clock()) => {
  const jobs = tickJobsOf(container);
  const results = await Promise.allSettled(jobs.map((job) => job.run(now)));
  results.forEach((r, i) => {
    if (r.status === "rejected") container.logger.error("tick job failed", { job: jobs[i]?.name, err: String(r.reason) });
  });
  return results;
};
