import { Duration } from "aws-cdk-lib";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { MAX_RECEIVE_COUNT, QUEUES, deadLetterName, type QueueKey } from "@atende/shared/contracts/queue-names";

/**
 * Visibility timeout per queue. Lambda consumers need at least their function timeout (AWS recommends six
 * times it, so retries inside a batch do not reappear early); the session host acknowledges commands quickly.
 */
export const VISIBILITY_TIMEOUT: Record<QueueKey, Duration> = {
  inbound: Duration.minutes(3),
  outbound: Duration.minutes(1),
  jobs: Duration.minutes(6),
};

/**
 * The three queues of the shared contract, with the contract's names, each with a dead-letter queue.
 * `inbound.fifo` and `outbound.fifo` are FIFO with explicit deduplication ids (the senders set them:
 * WhatsApp message id / command id), so content-based deduplication stays off.
 */
export class Queues extends Construct {
  readonly inbound: Queue;
  readonly outbound: Queue;
  readonly jobs: Queue;
  /** the dead-letter queue of each queue (alarms fire when any holds a message; `npm run redrive` empties them) */
  readonly deadLetters: Partial<Record<QueueKey, Queue>> = {};

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.inbound = this.queueWithDeadLetter("inbound");
    this.outbound = this.queueWithDeadLetter("outbound");
    this.jobs = this.queueWithDeadLetter("jobs");
  }

  private queueWithDeadLetter(key: QueueKey): Queue {
    const name = QUEUES[key];
    const fifo = name.endsWith(".fifo");
    const fifoProps = fifo ? { fifo: true, contentBasedDeduplication: false } : {};
    const common = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, ...fifoProps };
    const deadLetterQueue = new Queue(this, `${key}-dlq`, {
      ...common,
      queueName: deadLetterName(name),
      retentionPeriod: Duration.days(14),
    });
    this.deadLetters[key] = deadLetterQueue;
    return new Queue(this, key, {
      ...common,
      queueName: name,
      visibilityTimeout: VISIBILITY_TIMEOUT[key],
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT[key] },
    });
  }
}
