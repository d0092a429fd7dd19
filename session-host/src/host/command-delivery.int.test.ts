import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import "../testing/provided-context";
import { inboundEventSchema, type InboundEvent } from "@atende/shared/contracts/queue-messages";
import { createHostRuntime, type HostRuntime } from "../app";
import type { OutgoingMessage, Provider } from "../providers/provider.port";
import { createSimulatorProvider } from "../providers/simulator/simulator.provider";
import { startSimulatedNetwork, type SimulatedNetwork } from "../testing/simulated-network";
import { createTestTable, freePort, sendCommands, startTestSqs, testHostConfig, waitFor } from "../testing/test-env";

/**
 * How one host treats the commands it receives: a slow provider never lets a command outlive its visibility
 * (it would be received again and sent twice, or out of order), and transient failures are retried a few
 * times by the host before the command is reported failed.
 */
let sqs: Awaited<ReturnType<typeof startTestSqs>>;
let tableName: string;
let network: SimulatedNetwork;
const runtimes: HostRuntime[] = [];

/** The simulator provider, with every send going through `around` first. */
const providerWith = (around: (m: OutgoingMessage) => Promise<void>) => (): Provider => {
  const inner = createSimulatorProvider({ url: network.wireUrl });
  return {
    ...inner,
    createSession(ctx) {
      const session = inner.createSession(ctx);
      return { ...session, send: async (m) => (await around(m), session.send(m)) };
    },
  };
};

const startHost = async (hostId: string, around: (m: OutgoingMessage) => Promise<void>, env: Record<string, string> = {}) => {
  const rt = await createHostRuntime(
    testHostConfig({
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: inject("dynamoEndpoint"),
      SQS_ENDPOINT: sqs.endpoint,
      QUEUE_URL_INBOUND: sqs.queueUrls.inbound,
      QUEUE_URL_OUTBOUND: sqs.queueUrls.outbound,
      SESSION_HOST_ID: hostId,
      ...env,
    }),
    { providers: { simulator: providerWith(around) } },
  );
  runtimes.push(rt);
  await rt.host.start();
  return rt;
};

/** Connects a simulator connection on the host and returns its identity. */
const connect = async (rt: HostRuntime, companyId: number, number: string) => {
  const id = { companyId, whatsappId: 1 };
  await sendCommands(rt.sqs, sqs.queueUrls.outbound, [{ type: "session.start", commandId: `start-${companyId}`, ...id, channel: "simulator" }]);
  await waitFor("QR", async () => (await network.connections()).some((c) => c.companyId === companyId && c.status === "qrcode"));
  await network.scan(id, number);
  await waitFor("connected", () => rt.host.sessions().some((s) => s.companyId === companyId && s.status === "CONNECTED"));
  return id;
};

const results: InboundEvent[] = [];
const readInbound = async (client: SQSClient) => {
  const out = await client.send(new ReceiveMessageCommand({ QueueUrl: sqs.queueUrls.inbound, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
  const msgs = out.Messages ?? [];
  for (const m of msgs) results.push(inboundEventSchema.parse(JSON.parse(m.Body ?? "")));
  // deleted once read: like SQS, the queue hands out nothing more of a chat's group while an earlier event is in flight
  if (msgs.length)
    await client.send(new DeleteMessageBatchCommand({ QueueUrl: sqs.queueUrls.inbound, Entries: msgs.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
};
const resultsOf = async (client: SQSClient, commandId: string, count: number) => {
  await waitFor(`${count} result(s) of ${commandId}`, async () => {
    await readInbound(client);
    return results.filter((e) => e.type === "command.result" && e.commandId === commandId).length >= count;
  }, 20_000);
  return results.filter((e): e is Extract<InboundEvent, { type: "command.result" }> => e.type === "command.result" && e.commandId === commandId);
};
const outboundLeft = async (client: SQSClient) =>
  (await client.send(new ReceiveMessageCommand({ QueueUrl: sqs.queueUrls.outbound, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 0 }))).Messages?.length ?? 0;

beforeAll(async () => {
  sqs = await startTestSqs(await freePort());
  network = await startSimulatedNetwork();
  tableName = await createTestTable(inject("dynamoEndpoint"));
});

afterAll(async () => {
  for (const rt of runtimes) await rt.host.kill();
  for (const rt of runtimes) rt.sqs.destroy();
  await network?.close();
  await Promise.race([sqs?.stop(), new Promise((r) => setTimeout(r, 2_000))]);
});

describe("a host working on commands", () => {
  it("keeps a command invisible while a slow provider works on it: sent once, reported once", { timeout: 30_000 }, async () => {
    const calls: string[] = [];
    const rt = await startHost("slow", async (m) => {
      calls.push(m.messageId);
      await new Promise((r) => setTimeout(r, 5_000)); // 2.5 times the command visibility
    }, { COMMAND_VISIBILITY_SECONDS: "2", COMMAND_WAIT_SECONDS: "0", COMMAND_POLLERS: "2" });
    const id = await connect(rt, 31, "5511933330001");
    await network.upsertCustomer("5511933330002", undefined, false);
    await sendCommands(rt.sqs, sqs.queueUrls.outbound, [{ type: "send", commandId: "slow-1", messageId: "SLOW1", ...id, chatJid: "5511933330002@s.whatsapp.net", body: "devagar" }]);
    const got = await resultsOf(rt.sqs, "slow-1", 1);
    await new Promise((r) => setTimeout(r, 2_000)); // a second receive would have happened by now
    expect(calls).toEqual(["SLOW1"]);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ ok: true, messageId: "SLOW1" });
    expect(await outboundLeft(rt.sqs)).toBe(0);
    await rt.host.kill();
  });

  it("retries a transient failure on the host, then reports ok; one that keeps failing is reported ERR_SENDING_WAPP_MSG after 3 tries", { timeout: 30_000 }, async () => {
    const tries = new Map<string, number>();
    const rt = await startHost("flaky", async (m) => {
      const n = (tries.get(m.messageId) ?? 0) + 1;
      tries.set(m.messageId, n);
      if (m.messageId === "FLAKY" && n <= 2) throw new Error("socket hiccup");
      if (m.messageId === "BROKEN") throw new Error("socket gone for good");
    });
    const id = await connect(rt, 32, "5511933330003");
    await network.upsertCustomer("5511933330004", undefined, false);
    const chatJid = "5511933330004@s.whatsapp.net";
    await sendCommands(rt.sqs, sqs.queueUrls.outbound, [{ type: "send", commandId: "flaky-1", messageId: "FLAKY", ...id, chatJid, body: "oi" }]);
    expect(await resultsOf(rt.sqs, "flaky-1", 1)).toEqual([expect.objectContaining({ ok: true, messageId: "FLAKY" })]);
    expect(tries.get("FLAKY")).toBe(3);
    await sendCommands(rt.sqs, sqs.queueUrls.outbound, [{ type: "send", commandId: "broken-1", messageId: "BROKEN", ...id, chatJid, body: "oi" }]);
    expect(await resultsOf(rt.sqs, "broken-1", 1)).toEqual([expect.objectContaining({ ok: false, error: "ERR_SENDING_WAPP_MSG" })]);
    expect(tries.get("BROKEN")).toBe(3);
    expect((await network.chat("5511933330004", id)).messages.map((m) => m.id)).toEqual(["FLAKY"]);
    expect(await outboundLeft(rt.sqs)).toBe(0);
  });
});
