import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { jobMessageSchema, type JobMessage } from "@atende/shared/contracts/job-messages";
import type { Container } from "./container";
import { ANNOUNCEMENT_FANOUT_JOB, type FanOutPayload } from "../features/announcements/announcements.service";
import {
  CONTACT_LIST_CHECK_JOB,
  CONTACT_LIST_IMPORT_JOB,
  CONTACT_LIST_PURGE_JOB,
  type CheckJobPayload,
  type ImportJobPayload,
  type PurgeJobPayload,
} from "../features/contact-lists/contact-lists.service";
import { CAMPAIGN_STEP_JOB, type CampaignStepPayload } from "../features/campaigns/campaigns.service";
import { SOCKET_OPEN_JOB, SOCKET_PING_JOB, type SocketJobPayload } from "../features/realtime/sockets.service";

type JobHandler<T extends JobMessage["type"]> = (container: Container, job: Extract<JobMessage, { type: T }>) => Promise<void>;

/** Features register the delayed jobs they own. */
export const JOB_HANDLERS: { [T in JobMessage["type"]]?: JobHandler<T> } = {
  "user.offlineCheck": (container, job) => container.services.presence.offlineCheck(job.companyId, job.userId, job.lastSeenAt),
};

/** Named jobs of type "feature" (the inbox module's are added where they run: see runJob). */
export const FEATURE_JOBS: Record<string, (container: Container, companyId: number, payload: Record<string, unknown>) => Promise<void>> = {
  // our own job (enqueued by the announcements service), so its payload has that shape
  [ANNOUNCEMENT_FANOUT_JOB]: (container, companyId, payload) => container.services.announcements.fanOut(companyId, payload as FanOutPayload),
  // our own jobs (enqueued by the contact-lists service), so their payloads have these shapes
  [CONTACT_LIST_CHECK_JOB]: (container, companyId, payload) => container.services.contactLists.checkNumbers(companyId, payload as CheckJobPayload),
  [CONTACT_LIST_PURGE_JOB]: (container, companyId, payload) => container.services.contactLists.purge(companyId, payload as PurgeJobPayload),
  [CONTACT_LIST_IMPORT_JOB]: (container, companyId, payload) => container.services.contactLists.importRows(companyId, payload as ImportJobPayload),
  // enqueued only by the campaigns feature, so its payload has that shape
  [CAMPAIGN_STEP_JOB]: (container, companyId, payload) => container.services.campaignDispatch.step(companyId, payload as CampaignStepPayload),
  // enqueued only by the sockets service (Socket.IO open packet and heartbeat, ADR 0013)
  [SOCKET_OPEN_JOB]: (container, companyId, payload) => container.services.sockets.sendOpen(companyId, (payload as SocketJobPayload).connectionId),
  [SOCKET_PING_JOB]: (container, companyId, payload) =>
    container.services.sockets.sendPing(companyId, (payload as SocketJobPayload).connectionId, Number((payload as SocketJobPayload).seq ?? 0)),
};

export const runJob = async (container: Container, job: JobMessage) => {
  if (job.type === "feature") {
    const own = container.modules.inbox.jobs.named[job.name];
    if (own) return own(job.companyId, job.payload);
    const fn = FEATURE_JOBS[job.name];
    if (!fn) throw new Error(`unknown feature job ${job.name}`);
    return fn(container, job.companyId, job.payload);
  }
  const handler = JOB_HANDLERS[job.type] as JobHandler<typeof job.type> | undefined;
  if (!handler) throw new Error(`no handler for job ${job.type}`);
  return handler(container, job as never);
};

/** The `jobs` queue consumer (standard queue; failures are retried by SQS, then dead-lettered). */
export const consumeJobs = async (container: Container, event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    let job: JobMessage;
    try {
      job = jobMessageSchema.parse(JSON.parse(record.body));
    } catch (err) {
      container.logger.error("jobs: malformed job dropped", { messageId: record.messageId, err: String(err) });
      continue;
    }
    try {
      await runJob(container, job);
    } catch (err) {
      container.logger.error("jobs: failed", { type: job.type, companyId: job.companyId, err: String(err) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
