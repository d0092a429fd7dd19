import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { traced } from "../tracer";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import type { JobQueue } from "./jobs.port";

export const createSqsJobQueue = (opts: { queueUrl: string; region: string; endpoint?: string }): JobQueue => {
  const client = traced(new SQSClient({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
  }));
  return {
    async enqueue(job, delaySeconds = 0) {
      await client.send(
        new SendMessageCommand({ QueueUrl: opts.queueUrl, MessageBody: JSON.stringify(job), DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))) }),
      );
    },
  };
};

/** Tests: keeps every job with its delay; `drain` hands them to a consumer. */
export const createMemoryJobQueue = () => {
  const pending: { job: JobMessage; delaySeconds: number }[] = [];
  const queue: JobQueue & { pending: typeof pending } = {
    pending,
    async enqueue(job, delaySeconds = 0) {
      pending.push({ job, delaySeconds });
    },
  };
  return queue;
};
