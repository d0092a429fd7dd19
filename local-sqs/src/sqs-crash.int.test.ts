import { ReceiveMessageCommand, DeleteMessageBatchCommand, SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { QueueDefinition } from "./sqs.server";

/**
 * kill -9 of the stand-in's process in the middle of a burst: after a restart on the same folder, every
 * message whose send was answered 200 is received, and exactly once.
 */
const QUEUES: QueueDefinition[] = [{ QueueName: "in.fifo", Attributes: { FifoQueue: "true", VisibilityTimeout: "60" } }, { QueueName: "jobs" }];
const dataDir = mkdtempSync(join(tmpdir(), "local-sqs-crash-"));
const children: ChildProcess[] = [];
afterAll(() => {
  children.forEach((c) => c.kill("SIGKILL"));
  rmSync(dataDir, { recursive: true, force: true });
});

const startChild = async () => {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./testing/serve-child.ts", import.meta.url)), dataDir, JSON.stringify(QUEUES)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stand-in did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`stand-in exited ${code}:\n${out}`)));
  });
  const client = new SQSClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" }, maxAttempts: 1 });
  return { child, endpoint, client, url: (name: string) => `${endpoint}/000000000000/${name}` };
};

describe("the stand-in killed (SIGKILL) during a burst", () => {
  it("keeps every message it acknowledged, once", { timeout: 120_000 }, async () => {
    const first = await startChild();
    const acked = new Map<string, string>(); // message id -> body
    let attempted = 0;
    // 20 senders, 10 messages a call, on a FIFO and a standard queue, until the process dies under them: each one
    // goes on until a send fails, so its last attempt is always one the dead process never acknowledged
    const sender = async (s: number) => {
      for (let k = 0; ; k++) {
        const queue = s % 2 ? "in.fifo" : "jobs";
        const entries = Array.from({ length: 10 }, (_, i) => {
          const body = `s${s}-k${k}-i${i}`;
          return { Id: String(i), MessageBody: body, ...(queue === "in.fifo" ? { MessageGroupId: `g${s}`, MessageDeduplicationId: body } : {}) };
        });
        attempted += entries.length;
        try {
          const out = await first.client.send(new SendMessageBatchCommand({ QueueUrl: first.url(queue), Entries: entries }));
          for (const ok of out.Successful ?? []) acked.set(ok.MessageId!, entries[Number(ok.Id)]!.MessageBody);
        } catch {
          return; // the process is gone
        }
      }
    };
    const senders = Array.from({ length: 20 }, (_, s) => sender(s));
    while (acked.size < 2_000) await new Promise((r) => setTimeout(r, 5));
    first.child.kill("SIGKILL");
    await Promise.all(senders);
    first.client.destroy();
    expect(attempted).toBeGreaterThan(acked.size); // sends were in flight when it died

    const second = await startChild();
    const received = new Map<string, number>();
    const bodies = new Map<string, string>();
    for (const queue of ["in.fifo", "jobs"]) {
      for (;;) {
        const out = await second.client.send(new ReceiveMessageCommand({ QueueUrl: second.url(queue), MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
        const msgs = out.Messages ?? [];
        if (msgs.length === 0) break;
        for (const m of msgs) {
          received.set(m.MessageId!, (received.get(m.MessageId!) ?? 0) + 1);
          bodies.set(m.MessageId!, m.Body!);
        }
        await second.client.send(new DeleteMessageBatchCommand({ QueueUrl: second.url(queue), Entries: msgs.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
      }
    }
    second.child.kill("SIGKILL");
    second.client.destroy();
    const missing = [...acked.keys()].filter((id) => !received.has(id));
    expect(missing).toEqual([]);
    expect([...received.values()].filter((n) => n > 1)).toEqual([]);
    for (const [id, body] of acked) expect(bodies.get(id)).toBe(body);
    // nothing received twice under another id either (bodies are unique)
    expect(new Set(bodies.values()).size).toBe(bodies.size);
  });
});
