import { beforeAll, describe, expect, it } from "vitest";
import type { ChannelCommand } from "../../platform/channels/channel.port";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { createSendChain } from "./send-chain";

type Send = Extract<ChannelCommand, { type: "send" }>;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const send = (messageId: string, more: Partial<Send> = {}): Send => ({ type: "send", commandId: messageId, companyId: 41, whatsappId: 1, messageId, chatJid: "5511@s.whatsapp.net", body: messageId, ...more });
const chainOf = () => {
  const queued: string[] = [];
  const chain = createSendChain(t.container.db, { enqueue: async (c) => void queued.push(c.commandId), clock: () => new Date() });
  return { chain, queued };
};

describe("send chain (docs/adr/0106)", () => {
  it("a send without a predecessor goes at once; one after another waits until that one settled, then goes once", async () => {
    const { chain, queued } = chainOf();
    await chain.dispatch(send("a1", { followed: true }));
    await chain.dispatch(send("a2", { after: "a1", followed: true }));
    await chain.dispatch(send("a3", { after: "a2" }));
    expect(queued).toEqual(["a1"]);
    await chain.settled(send("a1", { followed: true }));
    expect(queued).toEqual(["a1", "a2"]);
    // a second delivery of a1's job settles again: nothing more goes
    await chain.settled(send("a1", { followed: true }));
    await chain.settled(send("a2", { after: "a1", followed: true }));
    expect(queued).toEqual(["a1", "a2", "a3"]);
  });

  it("a predecessor that settled before its follower was dispatched lets it go at once", async () => {
    const { chain, queued } = chainOf();
    await chain.dispatch(send("b1", { followed: true }));
    await chain.settled(send("b1", { followed: true }));
    await chain.dispatch(send("b2", { after: "b1" }));
    expect(queued).toEqual(["b1", "b2"]);
  });

  it("a send nobody follows writes nothing when it settles; another company's message of the same id is its own", async () => {
    const { chain, queued } = chainOf();
    await chain.dispatch(send("c1", { after: "c0" }));
    await chain.settled(send("c0"));
    expect(queued).toEqual([]);
    await chain.settled(send("c0", { companyId: 42, followed: true }));
    expect(queued).toEqual([]);
    await chain.settled(send("c0", { followed: true }));
    expect(queued).toEqual(["c1"]);
  });

  it("a parked send whose enqueue fails is parked again and goes with the predecessor's retry", async () => {
    const queued: string[] = [];
    let failing = true;
    const chain = createSendChain(t.container.db, {
      enqueue: async (c) => {
        if (failing && c.commandId === "d2") throw new Error("queue down");
        queued.push(c.commandId);
      },
      clock: () => new Date(),
    });
    await chain.dispatch(send("d2", { after: "d1" }));
    await expect(chain.settled(send("d1", { followed: true }))).rejects.toThrow("queue down");
    failing = false;
    await chain.settled(send("d1", { followed: true }));
    expect(queued).toEqual(["d2"]);
  });
});
