import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListMessageMoveTasksCommand,
  ListQueuesCommand,
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
  type Message,
} from "@aws-sdk/client-sqs";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startLocalSqs, type LocalSqs, type QueueDefinition } from "./sqs.server";

/** The stand-in driven through the AWS SDK v3 client, as the functions and the session host drive SQS. */
const queues: QueueDefinition[] = [
  { QueueName: "work-dlq.fifo", Attributes: { FifoQueue: "true" } },
  {
    QueueName: "work.fifo",
    Attributes: { FifoQueue: "true", VisibilityTimeout: "30", RedrivePolicy: JSON.stringify({ deadLetterTargetArn: "arn:aws:sqs:us-east-1:000000000000:work-dlq.fifo", maxReceiveCount: "2" }) },
  },
  { QueueName: "jobs-dlq" },
  { QueueName: "jobs", Attributes: { VisibilityTimeout: "30", RedrivePolicy: JSON.stringify({ deadLetterTargetArn: "arn:aws:sqs:us-east-1:000000000000:jobs-dlq", maxReceiveCount: "3" }) } },
];

const running: LocalSqs[] = [];
const clients: SQSClient[] = [];
const dirs: string[] = [];
const start = async (dataDir?: string) => {
  const sqs = await startLocalSqs({ queues, dataDir });
  running.push(sqs);
  const client = new SQSClient({ endpoint: sqs.endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  clients.push(client);
  return { sqs, client, fifo: sqs.queueUrl("work.fifo"), dlq: sqs.queueUrl("work-dlq.fifo"), jobs: sqs.queueUrl("jobs"), jobsDlq: sqs.queueUrl("jobs-dlq") };
};
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "local-sqs-"));
  dirs.push(d);
  return d;
};
afterEach(async () => {
  clients.splice(0).forEach((c) => c.destroy());
  for (const s of running.splice(0)) await s.stop();
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const receive = (client: SQSClient, url: string, extra: Partial<ReceiveMessageCommand["input"]> = {}) =>
  client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, MessageSystemAttributeNames: ["All"], ...extra })).then((o) => o.Messages ?? []);
const bodies = (ms: Message[]) => ms.map((m) => m.Body);
const sendFifo = (client: SQSClient, url: string, group: string, body: string, dedup = body) =>
  client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageGroupId: group, MessageDeduplicationId: dedup }));

describe("local SQS stand-in (AWS JSON protocol, SDK v3)", () => {
  it("finds queues by name and lists them; an unknown queue is QueueDoesNotExist", async () => {
    const { client, fifo } = await start();
    expect((await client.send(new GetQueueUrlCommand({ QueueName: "work.fifo" }))).QueueUrl).toBe(fifo);
    expect((await client.send(new ListQueuesCommand({ QueueNamePrefix: "jobs" }))).QueueUrls?.map((u) => u.split("/").pop()).sort()).toEqual(["jobs", "jobs-dlq"]);
    await expect(client.send(new GetQueueUrlCommand({ QueueName: "nope" }))).rejects.toMatchObject({ name: "QueueDoesNotExist" });
    await expect(client.send(new SendMessageCommand({ QueueUrl: fifo.replace("work.fifo", "nope"), MessageBody: "x" }))).rejects.toMatchObject({ name: "QueueDoesNotExist" });
  });

  it("FIFO: dedupes within the window, keeps order per group, and hands out nothing more of a group while part of it is in flight", async () => {
    const { client, fifo } = await start();
    for (const b of ["a1", "a2", "a3"]) await sendFifo(client, fifo, "A", b);
    await sendFifo(client, fifo, "B", "b1");
    const dup = await sendFifo(client, fifo, "A", "a1-again", "a1");
    const first = await receive(client, fifo, { MaxNumberOfMessages: 2 });
    expect(bodies(first)).toEqual(["a1", "a2"]);
    expect(dup.MessageId).toBe(first[0]!.MessageId);
    // group A is locked (a1, a2 in flight): another receiver gets only B
    const second = await receive(client, fifo);
    expect(bodies(second)).toEqual(["b1"]);
    expect(second[0]!.Attributes).toMatchObject({ MessageGroupId: "B", ApproximateReceiveCount: "1" });
    expect(Number(second[0]!.Attributes?.SentTimestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(await receive(client, fifo)).toEqual([]);
    // a1 handed back while a2 is still in flight: the group stays locked
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: fifo, ReceiptHandle: first[0]!.ReceiptHandle, VisibilityTimeout: 0 }));
    expect(await receive(client, fifo)).toEqual([]);
    // a2 handed back, a1 deleted: a2 comes first again, then a3
    await client.send(new DeleteMessageCommand({ QueueUrl: fifo, ReceiptHandle: first[0]!.ReceiptHandle }));
    expect(await receive(client, fifo)).toEqual([]);
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: fifo, ReceiptHandle: first[1]!.ReceiptHandle, VisibilityTimeout: 0 }));
    const third = await receive(client, fifo);
    expect(bodies(third)).toEqual(["a2", "a3"]);
    expect(third[0]!.Attributes?.ApproximateReceiveCount).toBe("2");
    await expect(client.send(new SendMessageCommand({ QueueUrl: fifo, MessageBody: "x", MessageGroupId: "A" }))).rejects.toMatchObject({ name: "InvalidParameterValue" });
    await expect(client.send(new SendMessageCommand({ QueueUrl: fifo, MessageBody: "x", MessageDeduplicationId: "x" }))).rejects.toMatchObject({ name: "MissingParameter" });
  });

  it("a stale receipt handle deletes nothing; a delete with the latest one does", async () => {
    const { client, jobs } = await start();
    await client.send(new SendMessageCommand({ QueueUrl: jobs, MessageBody: "j" }));
    const [m1] = await receive(client, jobs, { VisibilityTimeout: 0 });
    const [m2] = await receive(client, jobs);
    expect(m2!.MessageId).toBe(m1!.MessageId);
    await client.send(new DeleteMessageCommand({ QueueUrl: jobs, ReceiptHandle: m1!.ReceiptHandle }));
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: jobs, ReceiptHandle: m2!.ReceiptHandle, VisibilityTimeout: 0 }));
    const [m3] = await receive(client, jobs);
    expect(m3!.MessageId).toBe(m1!.MessageId);
    const out = await client.send(new DeleteMessageBatchCommand({ QueueUrl: jobs, Entries: [{ Id: "0", ReceiptHandle: m3!.ReceiptHandle }, { Id: "1", ReceiptHandle: "garbage" }] }));
    expect(out.Successful?.map((s) => s.Id)).toEqual(["0"]);
    expect(out.Failed?.map((f) => [f.Id, f.Code])).toEqual([["1", "ReceiptHandleIsInvalid"]]);
    const vis = await client.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: jobs, Entries: [{ Id: "0", ReceiptHandle: m3!.ReceiptHandle, VisibilityTimeout: 0 }] }));
    expect(vis.Failed?.length).toBe(1);
    expect(await receive(client, jobs)).toEqual([]);
  });

  it("a long poll answers as soon as a message is sent, and when a delay or a visibility timeout runs out", async () => {
    const { client, jobs, fifo } = await start();
    const t0 = Date.now();
    const polling = receive(client, jobs, { WaitTimeSeconds: 10 });
    await new Promise((r) => setTimeout(r, 200));
    await client.send(new SendMessageCommand({ QueueUrl: jobs, MessageBody: "now" }));
    expect(bodies(await polling)).toEqual(["now"]);
    expect(Date.now() - t0).toBeLessThan(5_000);

    await client.send(new SendMessageCommand({ QueueUrl: jobs, MessageBody: "later", DelaySeconds: 1 }));
    expect(await receive(client, jobs)).toEqual([]);
    const t1 = Date.now();
    expect(bodies(await receive(client, jobs, { WaitTimeSeconds: 10 }))).toEqual(["later"]);
    expect(Date.now() - t1).toBeGreaterThanOrEqual(900);
    expect(Date.now() - t1).toBeLessThan(5_000);

    await sendFifo(client, fifo, "G", "g1");
    await receive(client, fifo, { VisibilityTimeout: 1 });
    const t2 = Date.now();
    expect(bodies(await receive(client, fifo, { WaitTimeSeconds: 10 }))).toEqual(["g1"]);
    expect(Date.now() - t2).toBeLessThan(5_000);
    // an empty long poll waits its whole time
    const t3 = Date.now();
    expect(await receive(client, jobs, { WaitTimeSeconds: 1 })).toEqual([]);
    expect(Date.now() - t3).toBeGreaterThanOrEqual(950);
  });

  it("redrives to the dead-letter queue after maxReceiveCount receives, and StartMessageMoveTask moves them back", async () => {
    const { client, fifo, dlq, jobs, jobsDlq } = await start();
    await sendFifo(client, fifo, "A", "poison");
    await sendFifo(client, fifo, "A", "next");
    for (let i = 0; i < 2; i++) expect(bodies(await receive(client, fifo, { MaxNumberOfMessages: 1, VisibilityTimeout: 0 }))).toEqual(["poison"]);
    expect(bodies(await receive(client, fifo, { MaxNumberOfMessages: 1 }))).toEqual(["next"]);
    expect(bodies(await receive(client, dlq))).toEqual(["poison"]);

    await client.send(new SendMessageBatchCommand({ QueueUrl: jobs, Entries: [{ Id: "a", MessageBody: "j1" }, { Id: "b", MessageBody: "j2" }] }));
    for (let i = 0; i < 3; i++) expect((await receive(client, jobs, { VisibilityTimeout: 0 })).length).toBe(2);
    expect(await receive(client, jobs)).toEqual([]);
    const attrs = await client.send(new GetQueueAttributesCommand({ QueueUrl: jobsDlq, AttributeNames: ["All"] }));
    expect(attrs.Attributes?.ApproximateNumberOfMessages).toBe("2");
    await client.send(new StartMessageMoveTaskCommand({ SourceArn: attrs.Attributes!.QueueArn }));
    const tasks = await client.send(new ListMessageMoveTasksCommand({ SourceArn: attrs.Attributes!.QueueArn }));
    expect(tasks.Results?.[0]).toMatchObject({ Status: "COMPLETED", ApproximateNumberOfMessagesMoved: 2 });
    const back = await receive(client, jobs);
    expect(bodies(back).sort()).toEqual(["j1", "j2"]);
    expect(back[0]!.Attributes?.ApproximateReceiveCount).toBe("1");
    const counts = await client.send(new GetQueueAttributesCommand({ QueueUrl: jobs, AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] }));
    expect(counts.Attributes).toEqual({ ApproximateNumberOfMessages: "0", ApproximateNumberOfMessagesNotVisible: "2" });
    await client.send(new PurgeQueueCommand({ QueueUrl: jobs }));
    expect((await client.send(new GetQueueAttributesCommand({ QueueUrl: jobs, AttributeNames: ["All"] }))).Attributes?.ApproximateNumberOfMessagesNotVisible).toBe("0");
  });

  it("batches: per-entry failures, and limits checked as SQS does", async () => {
    const { client, fifo } = await start();
    const out = await client.send(
      new SendMessageBatchCommand({ QueueUrl: fifo, Entries: [{ Id: "0", MessageBody: "ok", MessageGroupId: "A", MessageDeduplicationId: "ok" }, { Id: "1", MessageBody: "no group", MessageDeduplicationId: "ng" }] }),
    );
    expect(out.Successful?.map((s) => s.Id)).toEqual(["0"]);
    expect(out.Failed?.map((f) => [f.Id, f.Code])).toEqual([["1", "MissingParameter"]]);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ Id: String(i), MessageBody: "x", MessageGroupId: "A", MessageDeduplicationId: String(i) }));
    await expect(client.send(new SendMessageBatchCommand({ QueueUrl: fifo, Entries: eleven }))).rejects.toMatchObject({ name: "TooManyEntriesInBatchRequest" });
    await expect(client.send(new SendMessageCommand({ QueueUrl: fifo, MessageBody: "x".repeat(262_145), MessageGroupId: "A", MessageDeduplicationId: "big" }))).rejects.toMatchObject({
      name: "InvalidParameterValue",
    });
  });

  it("keeps what it accepted on disk: after a restart messages come back (in-flight ones visible), deletes stay deleted, receive counts and dedupe ids are remembered", async () => {
    const dir = tempDir();
    const first = await start(dir);
    for (const b of ["a1", "a2", "a3"]) await sendFifo(first.client, first.fifo, "A", b);
    await first.client.send(new SendMessageCommand({ QueueUrl: first.jobs, MessageBody: "delayed", DelaySeconds: 600 }));
    const [a1] = await receive(first.client, first.fifo, { MaxNumberOfMessages: 1 });
    await first.client.send(new DeleteMessageCommand({ QueueUrl: first.fifo, ReceiptHandle: a1!.ReceiptHandle }));
    await receive(first.client, first.fifo, { MaxNumberOfMessages: 1 }); // a2 in flight when it stops
    await first.sqs.stop();

    const second = await start(dir);
    const again = await receive(second.client, second.fifo);
    expect(bodies(again)).toEqual(["a2", "a3"]);
    expect(again[0]!.Attributes?.ApproximateReceiveCount).toBe("2");
    await sendFifo(second.client, second.fifo, "A", "dup", "a3");
    expect(await receive(second.client, second.jobs)).toEqual([]); // still delayed
    const counts = await second.client.send(new GetQueueAttributesCommand({ QueueUrl: second.jobs, AttributeNames: ["ApproximateNumberOfMessagesDelayed"] }));
    expect(counts.Attributes?.ApproximateNumberOfMessagesDelayed).toBe("1");
    await second.client.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: second.fifo, Entries: again.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 })) }));
    // the receive count survived the restart too: a2's third receive sends it to the dead-letter queue (maxReceiveCount 2)
    expect(bodies(await receive(second.client, second.fifo))).toEqual(["a3"]);
    expect(bodies(await receive(second.client, second.dlq))).toEqual(["a2"]);
  });

  it("compacts its log when it grows: the live state survives, the log shrinks", async () => {
    const dir = tempDir();
    const sqs = await startLocalSqs({ queues, dataDir: dir, compactBytes: 20_000 });
    running.push(sqs);
    const client = new SQSClient({ endpoint: sqs.endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
    clients.push(client);
    const jobs = sqs.queueUrl("jobs");
    for (let round = 0; round < 20; round++) {
      await client.send(new SendMessageBatchCommand({ QueueUrl: jobs, Entries: Array.from({ length: 10 }, (_, i) => ({ Id: String(i), MessageBody: `r${round}-${i}-${"x".repeat(200)}` })) }));
      const got = await receive(client, jobs);
      await client.send(new DeleteMessageBatchCommand({ QueueUrl: jobs, Entries: got.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
    }
    await client.send(new SendMessageCommand({ QueueUrl: jobs, MessageBody: "survivor" }));
    expect(sqs.journal.stats.compactions).toBeGreaterThan(1);
    await sqs.stop();
    expect(readFileSync(join(dir, "queues.log"), "utf8").length).toBeLessThan(20_000);
    const again = await start(dir);
    expect(bodies(await receive(again.client, again.jobs))).toEqual(["survivor"]);
  });
});
