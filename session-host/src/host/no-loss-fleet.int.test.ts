import { DeleteMessageBatchCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import "../testing/provided-context";
import { inboundEventSchema, type InboundEvent, type OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { createHostRuntime, type HostRuntime } from "../app";
import { createSqsClient } from "../queues/sqs";
import { startSimulatedNetwork, type SimulatedNetwork } from "../testing/simulated-network";
import { createTestTable, freePort, sendCommands, startTestSqs, testHostConfig, waitFor } from "../testing/test-env";

/**
 * The no-loss test over a fleet (issue 29): three hosts share three connections; during a burst of inbound and
 * outbound messages one host is killed (a crash: nothing released) and another drained (SIGTERM: leases handed
 * over), and a fresh host joins. Every message arrives exactly once, in order per chat, both ways. The simulated
 * network is its own process, outside the hosts, and holds what customers send while a connection has no host.
 */
const CONNS = [1, 2, 3].map((i) => ({ companyId: 40 + i, whatsappId: i }));
const CUSTOMERS = ["5511970000001", "5511970000002", "5511970000003"];
const PER_CHAT = Number(process.env.NO_LOSS_FLEET_PER_CHAT ?? 30);

let sqs: Awaited<ReturnType<typeof startTestSqs>>;
let network: SimulatedNetwork;
let env: Record<string, string>;
const runtimes: HostRuntime[] = [];
const host = async (hostId: string) => {
  const rt = await createHostRuntime(testHostConfig({ ...env, SESSION_HOST_ID: hostId }), { sqs: createSqsClient("us-east-1", sqs.endpoint) });
  runtimes.push(rt);
  await rt.host.start();
  return rt;
};

beforeAll(async () => {
  network = await startSimulatedNetwork();
  sqs = await startTestSqs(await freePort());
  const tableName = await createTestTable(inject("dynamoEndpoint"));
  env = {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: inject("dynamoEndpoint"),
    SQS_ENDPOINT: sqs.endpoint,
    QUEUE_URL_INBOUND: sqs.queueUrls.inbound,
    QUEUE_URL_OUTBOUND: sqs.queueUrls.outbound,
    COMMAND_VISIBILITY_SECONDS: "10",
    SIMULATOR_NETWORK_URL: network.wireUrl,
  };
});

afterAll(async () => {
  for (const rt of runtimes) await rt.host.kill().catch(() => undefined);
  for (const rt of runtimes) rt.sqs.destroy();
  await network?.close();
  await Promise.race([sqs?.stop(), new Promise((r) => setTimeout(r, 2_000))]);
});

describe("a fleet of three hosts, one killed and one drained mid-burst", () => {
  it("loses and duplicates nothing, in order per chat, both ways", { timeout: 240_000 }, async () => {
    const client = createSqsClient("us-east-1", sqs.endpoint);
    const [a, b, c] = [await host("fleet-a"), await host("fleet-b"), await host("fleet-c")];
    await sendCommands(client, sqs.queueUrls.outbound, CONNS.map((id, i) => ({ type: "session.start", commandId: `start-${i}`, ...id, channel: "simulator" }) as OutboundCommand));
    await waitFor("three QRs", async () => (await network.connections()).filter((x) => x.status === "qrcode").length === 3, 30_000);
    for (const [i, id] of CONNS.entries()) await network.scan(id, `551190000100${i}`);
    await waitFor("three connected", async () => (await network.connections()).filter((x) => x.status === "CONNECTED").length === 3, 30_000);
    for (const n of CUSTOMERS) await network.upsertCustomer(n, undefined, false);

    const received: InboundEvent[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const out = await client.send(new ReceiveMessageCommand({ QueueUrl: sqs.queueUrls.inbound, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
        const msgs = out.Messages ?? [];
        for (const m of msgs) received.push(inboundEventSchema.parse(JSON.parse(m.Body ?? "")));
        if (msgs.length) await client.send(new DeleteMessageBatchCommand({ QueueUrl: sqs.queueUrls.inbound, Entries: msgs.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
      }
    })();

    // every customer writes to every connection, and the business answers each chat, interleaved
    const producing = (async () => {
      for (let i = 0; i < PER_CHAT; i++) {
        for (const id of CONNS) for (const n of CUSTOMERS) await network.customerSend(n, id, { type: "text", body: `in-${i}` });
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const commands: OutboundCommand[] = [];
    for (let i = 0; i < PER_CHAT; i++)
      for (const id of CONNS)
        for (const n of CUSTOMERS) commands.push({ type: "send", commandId: `cmd-${id.whatsappId}-${n}-${i}`, messageId: `out-${id.whatsappId}-${n}-${i}`, ...id, chatJid: `${n}@s.whatsapp.net`, body: `out-${i}` });
    const sending = sendCommands(client, sqs.queueUrls.outbound, commands);

    const total = CONNS.length * CUSTOMERS.length * PER_CHAT;
    const inbound = () => received.filter((e): e is Extract<InboundEvent, { type: "message" }> => e.type === "message").map((e) => ({ wa: e.whatsappId, m: e.message }));
    await waitFor("a part of the burst", () => inbound().length >= total / 5, 60_000);
    const holders = () => runtimes.map((r) => r.host.sessions().length);
    // a crash: one host that holds something dies without releasing anything
    const victim = [a, b, c].find((r) => r.host.sessions().length > 0)!;
    await victim.host.kill();
    await waitFor("a third of the burst", () => inbound().length >= total / 3, 90_000);
    // a drain: another host that holds something hands its leases over and leaves; a fresh one joins
    const drained = [a, b, c].find((r) => r !== victim && r.host.sessions().length > 0);
    await drained?.host.stop();
    await host("fleet-d");
    await sending;
    await producing;

    await waitFor(
      "everything through",
      async () => {
        const out = await Promise.all(CONNS.flatMap((id) => CUSTOMERS.map(async (n) => (await network.chat(n, id)).messages.filter((m) => !m.fromCustomer).length)));
        return inbound().length >= total && out.reduce((s, x) => s + x, 0) >= total;
      },
      150_000,
    ).catch((err) => {
      throw new Error(`${String(err)}: inbound ${inbound().length}/${total}, hosts ${JSON.stringify(holders())}`);
    });
    await new Promise((r) => setTimeout(r, 4_000)); // anything duplicated would show up by now
    reading = false;
    await reader;
    client.destroy();

    const messages = inbound();
    expect(messages.length).toBe(total);
    expect(new Set(messages.map((x) => `${x.wa}:${x.m.id}`)).size).toBe(total);
    for (const id of CONNS)
      for (const n of CUSTOMERS) {
        const bodies = messages.filter((x) => x.wa === id.whatsappId && x.m.chatJid === `${n}@s.whatsapp.net`).map((x) => x.m.body);
        expect(bodies, `inbound ${id.whatsappId}/${n}`).toEqual(Array.from({ length: PER_CHAT }, (_, i) => `in-${i}`));
        const got = (await network.chat(n, id)).messages.filter((m) => !m.fromCustomer).map((m) => m.body);
        expect(got, `outbound ${id.whatsappId}/${n}`).toEqual(Array.from({ length: PER_CHAT }, (_, i) => `out-${i}`));
      }
    const results = received.filter((e): e is Extract<InboundEvent, { type: "command.result" }> => e.type === "command.result" && e.commandId.startsWith("cmd-"));
    expect(new Set(results.filter((r) => r.ok).map((r) => r.commandId)).size).toBe(total);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });
});
