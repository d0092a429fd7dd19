import type { JobMessage } from "@atende/shared/contracts/job-messages";

/** Enqueues delayed work on the `jobs` queue (delay at most 900 seconds, SQS's limit). */
export type JobQueue = { enqueue(job: JobMessage, delaySeconds?: number): Promise<void> };
