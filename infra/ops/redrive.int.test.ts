import { ReceiveMessageCommand, SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadLetterName, QUEUES } from "@atende/shared/contracts/queue-names";
import { sqsClient, startSqs, type SqsHandle } from "../local/src/sqs";
import { freePort } from "../local/src/ports";
import { deadLetterQueueOf, redrive } from "./redrive";

let sqs: SqsHandle;
let client: SQSClient;
beforeAll(async () => {
  sqs = await startSqs(await freePort());
  client = sqsClient(sqs.endpoint);
});
afterAll(() => sqs?.stop());

const receiveAll = async (url: string) => {
  const bodies: string[] = [];
  for (;;) {
    const { Messages } = await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!Messages?.length) return bodies;
    bodies.push(...Messages.map((m) => m.Body!));
  }
};

describe("npm run redrive (against the local queues)", () => {
  it("names the dead-letter queue from the queue key, its name or its own name, and refuses others", () => {
    expect(deadLetterQueueOf("inbound")).toBe("inbound-dlq.fifo");
    expect(deadLetterQueueOf("outbound.fifo")).toBe("outbound-dlq.fifo");
    expect(deadLetterQueueOf("jobs-dlq")).toBe("jobs-dlq");
    expect(() => deadLetterQueueOf("payments")).toThrow(/unknown queue/);
  });

  it("moves every message of inbound's dead-letter queue back to inbound.fifo, in order, and leaves the DLQ empty", async () => {
    const dlqUrl = sqs.queueUrls.inbound.replace(QUEUES.inbound, deadLetterName(QUEUES.inbound));
    for (const n of [1, 2, 3]) {
      await client.send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: `event-${n}`, MessageGroupId: "w1:chat", MessageDeduplicationId: `d-${n}` }));
    }
    const result = await redrive(client, "inbound", { pollMs: 10 });
    expect(result).toEqual({ deadLetterQueue: "inbound-dlq.fifo", status: "COMPLETED", moved: 3 });
    expect(await receiveAll(sqs.queueUrls.inbound)).toEqual(["event-1", "event-2", "event-3"]);
    expect(await receiveAll(dlqUrl)).toEqual([]);
  });

  it("moves the jobs dead-letter queue back to jobs, and reports 0 on an empty one", async () => {
    const dlqUrl = sqs.queueUrls.jobs.replace(QUEUES.jobs, deadLetterName(QUEUES.jobs));
    await client.send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: "job-1" }));
    expect(await redrive(client, "jobs", { pollMs: 10 })).toMatchObject({ status: "COMPLETED", moved: 1 });
    expect(await receiveAll(sqs.queueUrls.jobs)).toEqual(["job-1"]);
    expect(await redrive(client, "jobs-dlq", { pollMs: 10 })).toMatchObject({ status: "COMPLETED", moved: 0 });
  });
});
