import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { createSqsServer } from "local-aws-sqs";
import { MAX_RECEIVE_COUNT, QUEUES, deadLetterName, type QueueKey } from "@atende/shared/contracts/queue-names";

export type SqsHandle = { endpoint: string; queueUrls: Record<keyof typeof QUEUES, string>; stop: () => Promise<void> };

const ACCOUNT = "000000000000";

/** local-aws-sqs (the SQS wire protocol, in process) with the same queues and dead-letter queues as AWS. */
export const startSqs = async (port: number): Promise<SqsHandle> => {
  const queues = (Object.entries(QUEUES) as [QueueKey, string][]).flatMap(([key, name]) => {
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
  const server = await createSqsServer({ port, hostname: "127.0.0.1", accountId: ACCOUNT, queues, emulateQueueCreationLifecycle: false } as never);
  const endpoint = `http://127.0.0.1:${port}`;
  const queueUrls = Object.fromEntries(Object.entries(QUEUES).map(([k, name]) => [k, `${endpoint}/${ACCOUNT}/${name}`])) as SqsHandle["queueUrls"];
  return { endpoint, queueUrls, stop: () => new Promise<void>((r) => (server as { close: (cb: () => void) => void }).close(() => r())) };
};

export const sqsClient = (endpoint: string) =>
  new SQSClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });

/**
 * Lambda's SQS event source mapping, on one machine: long-polls a queue, hands batches to the same
 * handler the Lambda runs, deletes what succeeded and leaves batchItemFailures for redelivery.
 */
export const pollQueue = (
  client: SQSClient,
  queueUrl: string,
  handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>,
  onError: (err: unknown) => void,
) => {
  let running = true;
  const loop = async () => {
    while (running) {
      try {
        const out = await client.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageSystemAttributeNames: ["All"] }),
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
        if (running) onError(err);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const done = loop();
  return {
    stop: async () => {
      running = false;
      await done;
    },
  };
};
