import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalSqs } from "@atende/local-sqs/sqs.server";
import { createTableInput } from "@atende/shared/table/table-definition";
import { QUEUES } from "@atende/shared/contracts/queue-names";
import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { parseHostConfig, type HostConfig } from "../config";

/** A fresh table in the shared DynamoDB Local (int project's global setup). */
export const createTestTable = async (endpoint: string) => {
  const tableName = `sh_${randomBytes(6).toString("hex")}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  client.destroy();
  return tableName;
};

/** Host configuration for tests: short leases, registry periods and visibility so takeovers happen in seconds. */
export const testHostConfig = (env: Record<string, string>): HostConfig =>
  parseHostConfig({
    MEDIA_DIR: mkdtempSync(join(tmpdir(), "sh-media-")),
    DEFAULT_CHANNEL: "simulator",
    // a host acts for a connection only inside its lease's validity (TTL less a quarter): leave a loaded 2-core
    // machine's slow table requests room before a renewal is late
    LEASE_TTL_MS: "3000",
    LEASE_HEARTBEAT_MS: "500",
    LEASE_SCAN_MS: "500",
    FLEET_WATCH_MS: "500",
    SESSION_HOST_HEARTBEAT_MS: "300",
    SESSION_HOST_STALE_MS: "4000",
    COMMAND_VISIBILITY_SECONDS: "3",
    COMMAND_WAIT_SECONDS: "1",
    SEND_WAIT_CONNECTED_MS: "5000",
    COMMAND_POLLERS: "1",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    ...env,
  });

/** Puts commands on outbound.fifo as the functions do (group = connection, dedup = command id), 10 per call. */
export const sendCommands = async (sqs: SQSClient, queueUrl: string, commands: OutboundCommand[]) => {
  for (let i = 0; i < commands.length; i += 10) {
    const chunk = commands.slice(i, i + 10);
    const out = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((c, j) => ({ Id: String(j), MessageBody: JSON.stringify(c), MessageGroupId: String(c.whatsappId), MessageDeduplicationId: c.commandId })),
      }),
    );
    if (out.Failed?.length) throw new Error(`send failed: ${JSON.stringify(out.Failed)}`);
  }
};

export const waitFor = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/**
 * The local SQS stand-in (@atende/local-sqs, in memory) with inbound.fifo and outbound.fifo and no dead-letter
 * redrive: in tests with several hosts, commands a host hands back to the owner of their connection must not count
 * towards a redrive limit. Like SQS, it hands out nothing of a message group while part of it is in flight.
 */
export const startTestSqs = async (port: number) => {
  const sqs = await startLocalSqs({
    port,
    queues: [QUEUES.inbound, QUEUES.outbound].map((QueueName) => ({ QueueName, Attributes: { FifoQueue: "true", ContentBasedDeduplication: "false", VisibilityTimeout: "60" } })),
  });
  return {
    endpoint: sqs.endpoint,
    queueUrls: { inbound: sqs.queueUrl(QUEUES.inbound), outbound: sqs.queueUrl(QUEUES.outbound) },
    stop: sqs.stop,
  };
};

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
