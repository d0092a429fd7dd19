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

  const receipt = (eventId: string, messageId: string, ack: number, extra: Record<string, unknown> = {}): InboundEvent =>
    ({ eventId, companyId: 1, whatsappId: 1, type: "message.update", messageId, chatJid: "A", ack, ...extra }) as InboundEvent;

  it("runs a message's receipts of one chat's batch as the highest one, at its place; every other event keeps its order", async () => {
    const handled: string[] = [];
    handlers.presence = async (e) => void handled.push(e.eventId);
    handlers["message.update"] = async (e) => void handled.push(`${e.messageId}:${e.ack}${e.body !== undefined ? ":edit" : ""}`);
    const res = await consumeInbound(t.container, {
      Records: [
        record("m1", "chatA", receipt("r1", "X", 2)),
        record("m2", "chatA", presence("p1", "A")),
        record("m3", "chatA", receipt("r2", "X", 4)),
        // a late, lower receipt of X: the stored ack would not move (no-op), so it is not run
        record("m4", "chatA", receipt("r3", "X", 3)),
        // an edit is not a bare receipt: it runs where it is, and Y's bare receipt after it too
        record("m5", "chatA", receipt("r4", "Y", 3, { body: "edited" })),
        record("m6", "chatA", presence("p2", "A")),
        record("m7", "chatA", receipt("r5", "Y", 2)),
        // another chat's receipt of the same id is its own
        record("m8", "chatB", receipt("r6", "X", 1)),
      ],
    } as never);
    expect(res.batchItemFailures).toEqual([]);
    expect(handled.filter((h) => !h.startsWith("X:1"))).toEqual(["p1", "X:4", "Y:3:edit", "p2", "Y:2"]);
    expect(handled).toContain("X:1");
  });

  it("counts the session host's accepted send as the message's ack 1; a refused send keeps its place", async () => {
    const handled: string[] = [];
    handlers["command.result"] = async (e) => void handled.push(`${e.messageId}:${e.ok ? "sent" : "refused"}`);
    handlers["message.update"] = async (e) => void handled.push(`${e.messageId}:${e.ack}`);
    const result = (eventId: string, messageId: string, ok: boolean): InboundEvent => ({ eventId, companyId: 1, whatsappId: 1, type: "command.result", commandId: messageId, messageId, ok, ...(ok ? {} : { error: "x" }) });
    const res = await consumeInbound(t.container, {
      Records: [
        record("m1", "chatA", result("c1", "X", true)),
        record("m2", "chatA", result("c2", "Y", false)),
        record("m3", "chatA", receipt("r1", "X", 3)),
        // Z's only receipt is its accepted send: it runs
        record("m4", "chatA", result("c3", "Z", true)),
      ],
    } as never);
    expect(res.batchItemFailures).toEqual([]);
    expect(handled).toEqual(["Y:refused", "X:3", "Z:sent"]);
  });

  it("hands back the kept receipt after a failure, so its redelivery still carries the highest ack", async () => {
    const handled: string[] = [];
    handlers.presence = async (e) => {
      if (e.eventId === "boom") throw new Error("boom");
      handled.push(e.eventId);
    };
    handlers["message.update"] = async (e) => void handled.push(`${e.messageId}:${e.ack}`);
    const res = await consumeInbound(t.container, {
      Records: [
        record("m1", "chatA", receipt("r1", "X", 2)),
        record("m2", "chatA", presence("boom", "A")),
        record("m3", "chatA", receipt("r2", "X", 3)),
      ],
    } as never);
    // r1 is superseded by r2 (counts as handled); the failure hands back m2 and everything after it, r2 included
    expect(handled).toEqual([]);
    expect(res.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(["m2", "m3"]);
  });

  it("drops a malformed record instead of retrying it forever", async () => {
    const handled: string[] = [];
    handlers.presence = async (e) => void handled.push(e.eventId);
    const res = await consumeInbound(t.container, { Records: [record("x1", "g", "{not json"), record("x2", "g", { type: "presence" }), record("x3", "g", presence("ok", "A"))] } as never);
    expect(res.batchItemFailures).toEqual([]);
    expect(handled).toEqual(["ok"]);
  });
});
