import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { startLocalSqs, type QueueDefinition } from "@atende/local-sqs/sqs.server";
import { MAX_RECEIVE_COUNT, QUEUES, deadLetterName, type QueueKey } from "@atende/shared/contracts/queue-names";

export type SqsHandle = { endpoint: string; queueUrls: Record<keyof typeof QUEUES, string>; stop: () => Promise<void> };

const ACCOUNT = "000000000000";

/** The queues and dead-letter queues as in AWS (infra/aws), as CreateQueue attributes. */
export const queueDefinitions = (): QueueDefinition[] =>
  (Object.entries(QUEUES) as [QueueKey, string][]).flatMap(([key, name]) => {
    const fifo = name.endsWith(".fifo");
    const dlq = deadLetterName(name);
    const attrs = (extra: Record<string, string>) => ({ ...(fifo ? { FifoQueue: "true", ContentBasedDeduplication: "false" } : {}), ...extra });
    return [
      { QueueName: dlq, Attributes: attrs({}) },
      {
        QueueName: name,
        Attributes: attrs({
          VisibilityTimeout: "60",
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:${dlq}`, maxReceiveCount: String(MAX_RECEIVE_COUNT[key]) }),
        }),
      },
    ];
  });

/**
 * The local SQS stand-in (@atende/local-sqs, the SQS wire protocol in process) with the same queues and
 * dead-letter queues as AWS. With `dataDir`, every message it accepted is on disk before it answers and
 * comes back after a crash (docs/adr/0010-local-sqs-stand-in.md).
 */
export const startSqs = async (port: number, dataDir?: string): Promise<SqsHandle> => {
  const sqs = await startLocalSqs({ port, host: "127.0.0.1", accountId: ACCOUNT, queues: queueDefinitions(), dataDir });
  const queueUrls = Object.fromEntries(Object.entries(QUEUES).map(([k, name]) => [k, sqs.queueUrl(name)])) as SqsHandle["queueUrls"];
  return { endpoint: sqs.endpoint, queueUrls, stop: sqs.stop };
};

export const sqsClient = (endpoint: string) =>
  new SQSClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });

/**
 * Lambda's SQS event source mapping, on one machine: `pollers` loops long-poll a queue, hand batches to the
 * same handler the Lambda runs, delete what succeeded and leave batchItemFailures for redelivery. Several
 * pollers on a FIFO queue keep the order per message group: the stand-in hands out nothing of a group while
 * part of it is in flight, as SQS does.
 */
export const pollQueue = (
  client: SQSClient,
  queueUrl: string,
  handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>,
  onError: (err: unknown) => void,
  opts: { pollers?: number; waitSeconds?: number } = {},
) => {
  let running = true;
  const abort = new AbortController();
  const loop = async () => {
    while (running) {
      try {
        const out = await client.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: opts.waitSeconds ?? 20, MessageSystemAttributeNames: ["All"] }),
          { abortSignal: abort.signal },
        );
        const messages = out.Messages ?? [];
        if (messages.length === 0) continue;
        const event: SQSEvent = {
          Records: messages.map((m) => ({
            messageId: m.MessageId ?? "",
            receiptHandle: m.ReceiptHandle ?? "",
            body: m.Body ?? "",
            attributes: (m.Attributes ?? {}) as never,
            messageAttributes: {},
            md5OfBody: m.MD5OfBody ?? "",
            eventSource: "aws:sqs",
            eventSourceARN: queueUrl,
            awsRegion: "us-east-1",
          })),
        };
        let failed = new Set<string>();
        try {
          const res = await handler(event);
          failed = new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (err) {
          onError(err);
          failed = new Set(messages.map((m) => m.MessageId ?? ""));
        }
        const done = messages.filter((m) => !failed.has(m.MessageId ?? ""));
        if (done.length)
          await client.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? "" })),
            }),
          );
      } catch (err) {
        if (!running) return;
        onError(err);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const loops = Array.from({ length: Math.max(1, opts.pollers ?? 1) }, loop);
  return {
    stop: async () => {
      running = false;
      abort.abort(); // long polls in progress end now; a batch being handled finishes first
      await Promise.all(loops);
    },
  };
};
