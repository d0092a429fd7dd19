import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";

/**
 * Puts session-host events on inbound.fifo. Group: `${companyId}:${whatsappId}:${chatJid}` for chat events
 * (order per chat; the company id keeps tenants apart) and `${companyId}:${whatsappId}` for connection-level
 * events. Dedup id: connection + event id (for messages the WhatsApp message id), so a redelivery after a host
 * died mid-send is dropped by SQS, while two connections in one group chat still both get the message.
 */
export type InboundPublisher = { publish(event: InboundEvent, chatJid?: string): Promise<void> };

export const groupIdOf = (event: Pick<InboundEvent, "companyId" | "whatsappId">, chatJid?: string) =>
  (chatJid ? `${event.companyId}:${event.whatsappId}:${chatJid}` : `${event.companyId}:${event.whatsappId}`).slice(0, 128);

export const dedupIdOf = (eventId: string) => eventId.replace(/[^\w!"#$%&'()*+,\-./:;<=>?@[\\\]^`{|}~]/g, "_").slice(0, 128);

export const createInboundPublisher = (sqs: SQSClient, queueUrl: string): InboundPublisher => ({
  async publish(event, chatJid) {
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(event),
        MessageGroupId: groupIdOf(event, chatJid),
        MessageDeduplicationId: dedupIdOf(`${event.companyId}:${event.whatsappId}:${event.eventId}`),
      }),
    );
  },
});
