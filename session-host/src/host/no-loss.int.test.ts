import { DeleteMessageBatchCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import "../testing/provided-context";
import { inboundEventSchema, type InboundEvent, type OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { createHostRuntime, type HostRuntime } from "../app";
import { createSqsClient } from "../queues/sqs";
import { startSimulatedNetwork, type SimulatedNetwork } from "../testing/simulated-network";
import { createTestTable, freePort, sendCommands, startTestSqs, testHostConfig, waitFor } from "../testing/test-env";

/**
 * Kill a host in the middle of a burst of 1,000 inbound and 1,000 outbound messages:
 * a second host takes the connection over and exactly 1,000 and 1,000 arrive, in order per chat. The simulated
 * network is its own process (as WhatsApp is outside the hosts); the hosts dial it over the wire.
 */
const CUSTOMERS = Array.from({ length: 10 }, (_, i) => `55119800000${String(i).padStart(2, "0")}`);
const PER_CHAT = Number(process.env.NO_LOSS_PER_CHAT ?? 100);
const CO = 1;
const WA = 1;

let sqs: Awaited<ReturnType<typeof startTestSqs>>;
let a: HostRuntime;
let b: HostRuntime;
let network: SimulatedNetwork;

beforeAll(async () => {
  network = await startSimulatedNetwork();
  sqs = await startTestSqs(await freePort());
  const tableName = await createTestTable(inject("dynamoEndpoint"));
  const env = {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: inject("dynamoEndpoint"),
    SQS_ENDPOINT: sqs.endpoint,
    QUEUE_URL_INBOUND: sqs.queueUrls.inbound,
    QUEUE_URL_OUTBOUND: sqs.queueUrls.outbound,
    // Longer than a batch ever takes, even on a loaded 2-core machine: a command must not become visible again
    // while its (live) host is still working on it. (Production uses 60 s.)
    COMMAND_VISIBILITY_SECONDS: "10",
    SIMULATOR_NETWORK_URL: network.wireUrl,
  };
  // Both hosts receive from the one outbound.fifo; the stand-in locks a FIFO group while part of it is in flight, as SQS does.
  const client = () => createSqsClient("us-east-1", sqs.endpoint);
  a = await createHostRuntime(testHostConfig({ ...env, SESSION_HOST_ID: "host-a" }), { sqs: client() });
  b = await createHostRuntime(testHostConfig({ ...env, SESSION_HOST_ID: "host-b" }), { sqs: client() });
});

afterAll(async () => {
  await a?.host.kill();
  await b?.host.stop();
  await network?.close();
  a?.sqs.destroy();
  b?.sqs.destroy();
  // keep-alive sockets of the readers would hold the emulator's close forever
  await Promise.race([sqs?.stop(), new Promise((r) => setTimeout(r, 2_000))]);
});

describe("a host dies mid-burst", () => {
  it("loses and duplicates nothing, in order per chat", { timeout: 180_000 }, async () => {
    const client = createSqsClient("us-east-1", sqs.endpoint);
    await a.host.start();
    await sendCommands(client, sqs.queueUrls.outbound, [{ type: "session.start", commandId: "start-1", companyId: CO, whatsappId: WA, channel: "simulator" }]);
    await waitFor("QR", async () => (await network.connections()).some((c) => c.status === "qrcode"));
    await network.scan({ companyId: CO, whatsappId: WA }, "5511900001111");
    await b.host.start();
    expect(a.host.sessions().map((s) => s.whatsappId)).toEqual([WA]);
    expect(b.host.sessions()).toEqual([]);
    for (const n of CUSTOMERS) await network.upsertCustomer(n, undefined, false);

    // Everything that reaches inbound.fifo, read like the consumer Lambda does (in order per group).
    const received: InboundEvent[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const out = await client.send(new ReceiveMessageCommand({ QueueUrl: sqs.queueUrls.inbound, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
        const msgs = out.Messages ?? [];
        for (const m of msgs) received.push(inboundEventSchema.parse(JSON.parse(m.Body ?? "")));
        if (msgs.length)
          await client.send(new DeleteMessageBatchCommand({ QueueUrl: sqs.queueUrls.inbound, Entries: msgs.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
      }
    })();

    // 1,000 inbound: 100 per customer, interleaved, arriving over a few seconds like real traffic.
    const producing = (async () => {
      for (let i = 0; i < PER_CHAT; i++) {
        for (const n of CUSTOMERS) await network.customerSend(n, { companyId: CO, whatsappId: WA }, { type: "text", body: `in-${i}` });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    // 1,000 outbound: 100 per chat.
    const commands: OutboundCommand[] = [];
    for (let i = 0; i < PER_CHAT; i++)
      for (const n of CUSTOMERS)
        commands.push({ type: "send", commandId: `cmd-${n}-${i}`, messageId: `out-${n}-${i}`, companyId: CO, whatsappId: WA, chatJid: `${n}@s.whatsapp.net`, body: `out-${i}` });
    const sending = sendCommands(client, sqs.queueUrls.outbound, commands);

    const chats = async () => Promise.all(CUSTOMERS.map(async (n) => (await network.chat(n, { companyId: CO, whatsappId: WA })).messages.filter((m) => !m.fromCustomer)));
    const delivered = async () => (await chats()).reduce((sum, c) => sum + c.length, 0);
    const inboundMessages = () => received.filter((e) => e.type === "message");
    const early = setInterval(async () => process.env.NO_LOSS_DEBUG && console.log(JSON.stringify({ out: await delivered(), in: inboundMessages().length })), 2000);
    await waitFor("part of the burst", async () => ((await delivered()) >= PER_CHAT && inboundMessages().length >= PER_CHAT) || inboundMessages().length >= PER_CHAT * 5, 60_000);
    clearInterval(early);
    await a.host.kill();
    const atKill = { outbound: await delivered(), inbound: inboundMessages().length };
    expect(atKill.outbound).toBeLessThan(CUSTOMERS.length * PER_CHAT);
    expect(atKill.inbound).toBeLessThan(CUSTOMERS.length * PER_CHAT);
    await sending;
    await producing;

    await waitFor("host B takes over", () => b.host.sessions().some((s) => s.whatsappId === WA), 30_000);
    const progress = setInterval(async () => process.env.NO_LOSS_DEBUG && console.log(JSON.stringify({ out: await delivered(), in: inboundMessages().length, a: a.host.sessions().length, b: b.host.sessions(), conns: await network.connections() })), 2000);
    await waitFor("everything through", async () => (await delivered()) >= CUSTOMERS.length * PER_CHAT && inboundMessages().length >= CUSTOMERS.length * PER_CHAT, 120_000).finally(() => clearInterval(progress));
    await new Promise((r) => setTimeout(r, 4_000)); // anything duplicated would show up by now
    reading = false;
    await reader;
    client.destroy();

    // inbound: exactly 1,000, each once, in order per chat
    const messages = inboundMessages().map((e) => (e as Extract<InboundEvent, { type: "message" }>).message);
    expect(messages.length).toBe(CUSTOMERS.length * PER_CHAT);
    expect(new Set(messages.map((m) => m.id)).size).toBe(CUSTOMERS.length * PER_CHAT);
    for (const n of CUSTOMERS) {
      const bodies = messages.filter((m) => m.chatJid === `${n}@s.whatsapp.net`).map((m) => m.body);
      expect(bodies).toEqual(Array.from({ length: PER_CHAT }, (_, i) => `in-${i}`));
    }
    // outbound: exactly 1,000 on the customers' phones, in order per chat
    for (const n of CUSTOMERS) {
      const got = (await network.chat(n, { companyId: CO, whatsappId: WA })).messages.filter((m) => !m.fromCustomer);
      expect(got.map((m) => m.body)).toEqual(Array.from({ length: PER_CHAT }, (_, i) => `out-${i}`));
    }
    // and every command reported accepted
    const results = received.filter((e): e is Extract<InboundEvent, { type: "command.result" }> => e.type === "command.result" && e.commandId.startsWith("cmd-"));
    expect(new Set(results.filter((r) => r.ok).map((r) => r.commandId)).size).toBe(CUSTOMERS.length * PER_CHAT);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    if (process.env.NO_LOSS_DEBUG) console.log(JSON.stringify({ atKill, takeover: b.host.sessions() }));
  });
});
