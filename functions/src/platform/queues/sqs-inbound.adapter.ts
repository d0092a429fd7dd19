import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { traced } from "../tracer";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import { inboundDedupId, inboundGroupId, type InboundQueue } from "./inbound-queue.port";

export const createSqsInboundQueue = (opts: { queueUrl: string; region: string; endpoint?: string }): InboundQueue => {
  const client = traced(
    new SQSClient({
      region: opts.region,
      ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
    }),
  );
  return {
    async put(event, chatJid) {
      await client.send(
        new SendMessageCommand({ QueueUrl: opts.queueUrl, MessageBody: JSON.stringify(event), MessageGroupId: inboundGroupId(event, chatJid), MessageDeduplicationId: inboundDedupId(event) }),
      );
    },
  };
};

/** Tests: keeps every event in order. */
export const createMemoryInboundQueue = () => {
  const events: InboundEvent[] = [];
  const queue: InboundQueue & { events: InboundEvent[] } = {
    events,
    async put(event) {
      events.push(event);
    },
  };
  return queue;
};
