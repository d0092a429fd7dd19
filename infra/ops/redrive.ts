import { GetQueueAttributesCommand, GetQueueUrlCommand, ListMessageMoveTasksCommand, SQSClient, StartMessageMoveTaskCommand } from "@aws-sdk/client-sqs";
import { QUEUES, deadLetterName, type QueueKey } from "@atende/shared/contracts/queue-names";

export type RedriveResult = { deadLetterQueue: string; status: string; moved: number; failureReason?: string };

/** `inbound`, `inbound.fifo` or `inbound-dlq.fifo` -> the dead-letter queue's name. */
export const deadLetterQueueOf = (queue: string): string => {
  const key = (Object.keys(QUEUES) as QueueKey[]).find((k) => queue === k || queue === QUEUES[k] || queue === deadLetterName(QUEUES[k]));
  if (!key) throw new Error(`unknown queue "${queue}": one of ${Object.keys(QUEUES).join(", ")}`);
  return deadLetterName(QUEUES[key]);
};

/**
 * Moves every message of a dead-letter queue back to its source queue with SQS's own redrive
 * (StartMessageMoveTask without DestinationArn, then ListMessageMoveTasks until the task ends): the same calls
 * on real SQS and on the local stand-in. Returns the task's final state.
 */
export const redrive = async (client: SQSClient, queue: string, opts: { pollMs?: number; timeoutMs?: number; log?: (line: string) => void } = {}): Promise<RedriveResult> => {
  const log = opts.log ?? (() => {});
  const deadLetterQueue = deadLetterQueueOf(queue);
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: deadLetterQueue }));
  const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["QueueArn", "ApproximateNumberOfMessages"] }));
  const sourceArn = Attributes?.QueueArn;
  if (!sourceArn) throw new Error(`no ARN for ${deadLetterQueue}`);
  log(`${deadLetterQueue}: ${Attributes?.ApproximateNumberOfMessages ?? "?"} message(s) to move back`);
  const { TaskHandle } = await client.send(new StartMessageMoveTaskCommand({ SourceArn: sourceArn }));
  const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const { Results } = await client.send(new ListMessageMoveTasksCommand({ SourceArn: sourceArn, MaxResults: 10 }));
    const task = Results?.find((t) => t.TaskHandle === TaskHandle) ?? Results?.[0];
    const status = task?.Status ?? "UNKNOWN";
    const moved = Number(task?.ApproximateNumberOfMessagesMoved ?? 0);
    if (status !== "RUNNING" && status !== "CANCELLING") return { deadLetterQueue, status, moved, ...(task?.FailureReason ? { failureReason: task.FailureReason } : {}) };
    log(`${deadLetterQueue}: ${moved} moved so far`);
    if (Date.now() > deadline) return { deadLetterQueue, status: "TIMED_OUT", moved };
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 2000));
  }
};

/** `npm run redrive -- <queue>`: AWS credentials and region from the environment; SQS_ENDPOINT for the local stand-in. */
const main = async () => {
  const queue = process.argv[2];
  if (!queue) {
    console.error(`usage: npm run redrive -- <${Object.keys(QUEUES).join("|")}>   (SQS_ENDPOINT=http://127.0.0.1:<port> for the local platform)`);
    process.exit(2);
  }
  const endpoint = process.env.SQS_ENDPOINT;
  const client = new SQSClient({
    region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
    ...(endpoint ? { endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
  });
  const result = await redrive(client, queue, { log: (line) => console.log(line) });
  console.log(`${result.deadLetterQueue}: ${result.status}, ${result.moved} message(s) moved${result.failureReason ? ` (${result.failureReason})` : ""}`);
  if (result.status !== "COMPLETED") process.exit(1);
};

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
