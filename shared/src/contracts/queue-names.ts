/**
 * Queue names, identical in AWS (SQS) and locally (local-aws-sqs).
 * `inbound` and `outbound` are FIFO: order matters per chat / per connection.
 */
export const QUEUES = {
  /** session host -> functions: WhatsApp events (message, ack, connection state, QR ...). Group: connection+chat. */
  inbound: "inbound.fifo",
  /** functions -> session host: commands (send, edit, delete, start, stop ...). Group: connection. */
  outbound: "outbound.fifo",
  /** functions -> functions: delayed work (automation timers, campaign pacing). Standard queue (supports delay). */
  jobs: "jobs",
} as const;
export type QueueKey = keyof typeof QUEUES;
export const deadLetterName = (name: string) => (name.endsWith(".fifo") ? name.replace(/\.fifo$/, "-dlq.fifo") : `${name}-dlq`);
