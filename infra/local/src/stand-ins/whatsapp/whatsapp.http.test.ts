import { describe, expect, it } from "vitest";
import { createSimulatorNetwork } from "./network";
import { memoryPairingStore } from "./network-types";
import { createSimulatorHttp } from "./whatsapp.http";

/** Issue 27 finding 6: the phones' API serves only what a phone has, and reads no unbounded body. */
const setup = async (maxBodyBytes?: number) => {
  const network = createSimulatorNetwork({ pairing: memoryPairingStore(), ackDelayMs: 5, pairingDelayMs: 1 });
  const http = createSimulatorHttp(network, { maxBodyBytes });
  const client = { onQr: () => undefined, onPairingCode: () => undefined, onPairing: () => undefined, onConnected: () => undefined, onLoggedOut: () => undefined, onPasskeyRequired: () => undefined, onReplaced: () => undefined, deliver: async () => undefined };
  const business = network.attach({ companyId: 7, whatsappId: 1 }, client);
  await network.scan({ companyId: 7, whatsappId: 1 }, "5511900007777");
  const call = (path: string, init?: RequestInit) => http.fetch(new Request(`http://local/simulator/api${path}`, init));
  return { network, http, business, call };
};

describe("simulator media", () => {
  it("serves an attachment only to the phone that sent or received it, by an unguessable id; never the platform's media store", async () => {
    const { network, business, call } = await setup();
    const ref = { companyId: 7, whatsappId: 1 };
    const sent = await network.customerSend("5511988881111", ref, { type: "image", mediaBase64: Buffer.from("customer-bytes").toString("base64"), mimetype: "image/png" });
    await business.send({ messageId: "OUT1", chatJid: "5511922223333@s.whatsapp.net", body: "", media: { kind: "document", key: "7/2026/11/x-boleto.pdf", mimetype: "application/pdf", bytes: Buffer.from("%PDF business") } });
    const mine = network.chat("5511988881111", ref).messages[0]!.media!;
    const theirs = network.chat("5511922223333", ref).messages[0]!.media!;
    expect(mine.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(mine.id).not.toBe(sent.id);

    const own = await call(`/media?phone=5511988881111&id=${mine.id}`);
    expect(own.status).toBe(200);
    expect(await own.text()).toBe("customer-bytes");
    expect(await (await call(`/media?phone=5511922223333&id=${theirs.id}`)).text()).toBe("%PDF business");

    // another phone's attachment, a message id, the media store's key (any company's file): nothing
    expect((await call(`/media?phone=5511922223333&id=${mine.id}`)).status).toBe(404);
    expect((await call(`/media?phone=5511988881111&id=${sent.id}`)).status).toBe(404);
    expect((await call(`/media?key=${encodeURIComponent("7/2026/11/x-boleto.pdf")}`)).status).toBe(400);
    expect((await call(`/media?phone=5511922223333&id=${encodeURIComponent("7/2026/11/x-boleto.pdf")}`)).status).toBe(404);
  });
});

describe("simulator request bodies", () => {
  it("refuses a body over the cap with 413 before reading it whole", async () => {
    const { call } = await setup(1024);
    const big = JSON.stringify({ companyId: 7, whatsappId: 1, type: "image", mediaBase64: "A".repeat(4096) });
    const declared = await call("/customers/5511988881111/messages", { method: "POST", headers: { "content-type": "application/json" }, body: big });
    expect(declared.status).toBe(413);
    // a streamed body without a length is cut off at the cap too
    let pulled = 0;
    const stream = new ReadableStream({
      pull(c) {
        pulled += 512;
        if (pulled > 1_000_000) return c.close();
        c.enqueue(new TextEncoder().encode("A".repeat(512)));
      },
    });
    const streamed = await call("/customers/5511988881111/messages", { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(100_000);
    const small = await call("/customers/5511988881111/messages", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ companyId: 7, whatsappId: 1, type: "text", body: "oi" }) });
    expect(small.status).toBe(201);
  });
});
