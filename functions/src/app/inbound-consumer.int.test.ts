import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import { createTestApp, type TestApp } from "../testing/test-app";
import { consumeInbound, inboundHandlersOf } from "./inbound-consumer";
import type { InboundHandlers } from "../platform/modules/feature-module";

let t: TestApp;
// the container's handler map (built once per container): a test replaces one handler and puts it back
let handlers: InboundHandlers;
let original: InboundHandlers;
beforeAll(async () => {
  t = await createTestApp();
  handlers = inboundHandlersOf(t.container);
  original = { ...handlers };
});
afterEach(() => Object.assign(handlers, original));

const presence = (eventId: string, chatJid: string): InboundEvent => ({ eventId, companyId: 1, whatsappId: 1, type: "presence", chatJid, presence: "composing" });
const record = (id: string, group: string, body: unknown) => ({ messageId: id, body: typeof body === "string" ? body : JSON.stringify(body), attributes: { MessageGroupId: group } });

describe("inbound.fifo consumer", () => {
  it("keeps each chat in order: after a failure, the rest of that chat is handed back; other chats go on", async () => {
    const handled: string[] = [];
    handlers.presence = async (e) => {
      if (e.eventId === "a2") throw new Error("boom");
      handled.push(e.eventId);
    };
    const res = await consumeInbound(t.container, {
      Records: [
        record("m1", "chatA", presence("a1", "A")),
        record("m2", "chatA", presence("a2", "A")),
        record("m3", "chatB", presence("b1", "B")),
        record("m4", "chatA", presence("a3", "A")),
        record("m5", "chatB", presence("b2", "B")),
      ],
    } as never);
    expect(handled).toEqual(expect.arrayContaining(["a1", "b1", "b2"]));
    expect(handled).not.toContain("a3");
    expect(res.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(["m2", "m4"]);
  });

  it("drops a malformed record instead of retrying it forever", async () => {
    const handled: string[] = [];
    handlers.presence = async (e) => void handled.push(e.eventId);
    const res = await consumeInbound(t.container, { Records: [record("x1", "g", "{not json"), record("x2", "g", { type: "presence" }), record("x3", "g", presence("ok", "A"))] } as never);
    expect(res.batchItemFailures).toEqual([]);
    expect(handled).toEqual(["ok"]);
  });
});
