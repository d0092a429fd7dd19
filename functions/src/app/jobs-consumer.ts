import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { jobMessageSchema, type JobMessage } from "@atende/shared/contracts/job-messages";
import { runWithCorrelation } from "../platform/logger";
import { runUnitOfWork } from "../platform/unit-of-work";
import type { Container } from "./container";
import type { FeatureModule, JobHandlers } from "../platform/modules/feature-module";

type TypedHandler = (job: JobMessage) => Promise<void>;
type NamedHandler = (companyId: number, payload: Record<string, unknown>) => Promise<void>;

/** Jobs the modules register (typed by message type, or named `feature` jobs). */
const jobHandlersOf = (container: Container) => {
  const cached = byContainer.get(container);
  if (cached) return cached;
  const typed: Record<string, TypedHandler> = {};
  const named: Record<string, NamedHandler> = {};
  const modules: Pick<FeatureModule<unknown>, "jobs">[] = Object.values(container.modules).flat();
  for (const m of modules) {
    const jobs: JobHandlers = m.jobs ?? {};
    Object.assign(typed, jobs.typed);
    Object.assign(named, jobs.named);
  }
  const handlers = { typed, named };
  byContainer.set(container, handlers);
  return handlers;
};
const byContainer = new WeakMap<Container, { typed: Record<string, TypedHandler>; named: Record<string, NamedHandler> }>();

export const runJob = async (container: Container, job: JobMessage) => {
  const { typed, named } = jobHandlersOf(container);
  if (job.type === "feature") {
    const fn = named[job.name];
    if (!fn) throw new Error(`unknown feature job ${job.name}`);
    return fn(job.companyId, job.payload);
  }
  const handler = typed[job.type];
  if (!handler) throw new Error(`no handler for job ${job.type}`);
  return handler(job);
};

/**
 * The `jobs` queue consumer (standard queue: no order among jobs; failures are retried by SQS, then dead-lettered).
 * A batch's jobs run side by side, so one slow job (a bot waiting for its model, ADR 0026) delays no other.
 */
export const consumeJobs = async (container: Container, event: SQSEvent): Promise<SQSBatchResponse> => {
  const outcomes = await Promise.all(
    event.Records.map(async (record): Promise<string | null> => {
      let job: JobMessage;
      try {
        job = jobMessageSchema.parse(JSON.parse(record.body));
      } catch (err) {
        container.logger.error("jobs: malformed job dropped", { messageId: record.messageId, err: String(err) });
        return null;
      }
      try {
        const ticketId = (job as { ticketId?: number; payload?: { ticketId?: number } }).ticketId ?? (job as { payload?: { ticketId?: number } }).payload?.ticketId;
        await runWithCorrelation({ requestId: record.messageId, companyId: job.companyId, ticketId }, () => runUnitOfWork(() => runJob(container, job)));
        return null;
      } catch (err) {
        container.logger.error("jobs: failed", { type: job.type, companyId: job.companyId, err: String(err) });
        return record.messageId;
      }
    }),
  );
  return { batchItemFailures: outcomes.filter((id): id is string => id !== null).map((itemIdentifier) => ({ itemIdentifier })) };
};
