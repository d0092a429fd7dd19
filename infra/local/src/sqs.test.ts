import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { SQSEvent } from "aws-lambda";
import { afterAll, describe, expect, it } from "vitest";
import { pollQueue, sqsClient, startSqs, type SqsHandle } from "./sqs";

/** The runner's event source mapping with several consumers of a FIFO queue: per-group order holds. */
let sqs: SqsHandle | undefined;
afterAll(async () => sqs?.stop());

describe("pollQueue with several pollers on inbound.fifo", () => {
  it("hands every message to one handler once, in order per message group, with batches running concurrently", { timeout: 60_000 }, async () => {
    sqs = await startSqs(0);
    const client = sqsClient(sqs.endpoint);
    const GROUPS = 8;
    const PER_GROUP = 25;
    const seen = new Map<string, number[]>();
    let inHandler = 0;
    let maxConcurrent = 0;
    let failedOnce = false;
    const handler = async (event: SQSEvent) => {
      inHandler++;
      maxConcurrent = Math.max(maxConcurrent, inHandler);
      try {
        // a slow, uneven consumer (a DynamoDB write takes a few ms, sometimes more)
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 30));
        const failures: { itemIdentifier: string }[] = [];
        for (const [i, r] of event.Records.entries()) {
          const { g, n } = JSON.parse(r.body) as { g: string; n: number };
          // once, a record fails: it and the rest of its group in this batch come back, in order
          if (!failedOnce && n === 10) {
            failedOnce = true;
            failures.push(...event.Records.slice(i).filter((x) => x.attributes.MessageGroupId === g).map((x) => ({ itemIdentifier: x.messageId })));
          }
          if (failures.some((f) => f.itemIdentifier === r.messageId)) continue;
          seen.set(g, [...(seen.get(g) ?? []), n]);
        }
        return { batchItemFailures: failures };
      } finally {
        inHandler--;
      }
    };
    const poller = pollQueue(client, sqs.queueUrls.inbound, handler, () => undefined, { pollers: 4, waitSeconds: 1 });
    const messages = Array.from({ length: PER_GROUP }, (_, n) => Array.from({ length: GROUPS }, (_, g) => ({ g: `chat-${g}`, n }))).flat();
    for (let i = 0; i < messages.length; i += 10)
      await client.send(
        new SendMessageBatchCommand({
          QueueUrl: sqs.queueUrls.inbound,
          Entries: messages.slice(i, i + 10).map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m), MessageGroupId: m.g, MessageDeduplicationId: `${m.g}-${m.n}` })),
        }),
      );
    // the failed record waits out the queue's visibility timeout (60 s): its group gets nothing more meanwhile,
    // every other group goes through
    const until = Date.now() + 20_000;
    while ([...seen.values()].reduce((s, v) => s + v.length, 0) < GROUPS * PER_GROUP - PER_GROUP + 10 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await poller.stop();
    client.destroy();
    expect(maxConcurrent).toBeGreaterThan(1);
    for (const [g, ns] of seen) {
      // in order, no repeats; the group whose record failed stops at it (its rest waits behind it)
      expect(ns, g).toEqual(Array.from({ length: ns.length }, (_, i) => i));
      if (ns.length < PER_GROUP) expect(ns.length, g).toBe(10);
    }
    expect(seen.size).toBe(GROUPS);
    expect([...seen.values()].filter((ns) => ns.length === PER_GROUP).length).toBe(GROUPS - 1);
  });
});
