import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";

/**
 * Puts session-host events on inbound.fifo. Group: `${companyId}:${whatsappId}:${chatJid}` for chat events
 * (order per chat; the company id keeps tenants apart) and `${companyId}:${whatsappId}` for connection-level
 * events. Dedup id: connection + event id (for messages the WhatsApp message id), so a redelivery after a host
 * died mid-send is dropped by SQS, while two connections in one group chat still both get the message.
 *
 * Calls made in the same tick go out together (SendMessageBatch, 10 per request, in call order); one batch is
 * in flight at a time, so events leave in the order they were published.
 */
export type InboundPublisher = { publish(event: InboundEvent, chatJid?: string): Promise<void> };

export const groupIdOf = (event: Pick<InboundEvent, "companyId" | "whatsappId">, chatJid?: string) =>
  (chatJid ? `${event.companyId}:${event.whatsappId}:${chatJid}` : `${event.companyId}:${event.whatsappId}`).slice(0, 128);

export const dedupIdOf = (eventId: string) => eventId.replace(/[^\w!"#$%&'()*+,\-./:;<=>?@[\\\]^`{|}~]/g, "_").slice(0, 128);

type Pending = { event: InboundEvent; chatJid?: string; resolve: () => void; reject: (err: unknown) => void };

export const createInboundPublisher = (sqs: SQSClient, queueUrl: string): InboundPublisher & { stats: { batches: number; events: number } } => {
  const queue: Pending[] = [];
  const stats = { batches: 0, events: 0 };
  let flushing = false;

  const flush = async () => {
    if (flushing) return;
    flushing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, 10);
        try {
          const out = await sqs.send(
            new SendMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: batch.map((p, i) => ({
                Id: String(i),
                MessageBody: JSON.stringify(p.event),
                MessageGroupId: groupIdOf(p.event, p.chatJid),
                MessageDeduplicationId: dedupIdOf(`${p.event.companyId}:${p.event.whatsappId}:${p.event.eventId}`),
              })),
            }),
          );
          stats.batches++;
          const failed = new Map((out.Failed ?? []).map((f) => [f.Id, f]));
          batch.forEach((p, i) => {
            const f = failed.get(String(i));
            if (f) p.reject(new Error(`inbound send failed: ${f.Code} ${f.Message}`));
            else {
              stats.events++;
              p.resolve();
            }
          });
        } catch (err) {
          batch.forEach((p) => p.reject(err));
        }
      }
    } finally {
      flushing = false;
    }
  };

  return {
    stats,
    publish(event, chatJid) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ event, chatJid, resolve, reject });
        setImmediate(() => void flush());
      });
    },
  };
};
