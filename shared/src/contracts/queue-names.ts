/**
 * Queue names, identical in AWS (SQS) and locally (the stand-in in local-sqs/, ADR 0010).
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

/**
 * Receives before a message moves to its dead-letter queue. `outbound.fifo` is higher: when several session
 * hosts run (a deploy overlaps the old and the new task), a host that receives a command of a connection
 * another host drives hands it back, and every such receive counts. The host gives up on a command that
 * really fails by itself (a provider error is reported as the command's result), so the redrive there
 * only catches what no host could ever handle.
 */
export const MAX_RECEIVE_COUNT: Record<QueueKey, number> = { inbound: 5, outbound: 50, jobs: 5 };
