import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import "../testing/provided-context";
import { createLocalMediaStore } from "../media/local-media.store";
import { createDb, type Db } from "../platform/db";
import { createLogger } from "../platform/logger";
import type { ProviderMessage } from "../providers/provider.port";
import { createTestTable, waitFor } from "../testing/test-env";
import { createEventEmitter } from "./event-emitter";
import { createEventSpill } from "./event-spill";

let db: Db;
beforeAll(async () => {
  const tableName = await createTestTable(inject("dynamoEndpoint"));
  db = createDb({ tableName, endpoint: inject("dynamoEndpoint"), region: "us-east-1" });
});
afterAll(() => db?.doc.destroy());

const media = createLocalMediaStore(mkdtempSync(join(tmpdir(), "spill-media-")));
const logger = createLogger("silent");

/** inbound.fifo as the emitter sees it: records what was published, fails while `down` */
const queue = () => {
  const published: { id: string; chatJid?: string }[] = [];
  const q = {
    down: false,
    published,
    ids: () => published.map((p) => p.id),
    publish: async (e: InboundEvent, chatJid?: string) => {
      await new Promise((r) => setTimeout(r, 2));
      if (q.down) throw new Error("SQS unavailable");
      published.push({ id: e.eventId, chatJid });
    },
  };
  return q;
};

const msg = (id: string, chatJid = "5511987654321@s.whatsapp.net"): ProviderMessage => ({
  id,
  chatJid,
  fromMe: false,
  isGroup: false,
  sender: { jid: chatJid, number: "5511987654321" },
  type: "chat",
  body: `texto ${id}`,
  isForwarded: false,
  timestamp: 1_763_800_000,
});

describe("events Baileys already acknowledged are never lost (spill in the table, DynamoDB Local)", () => {
  it("a queue outage: the messages wait in the spill and reach the queue in order, ahead of later ones", async () => {
    const identity = { companyId: 51, whatsappId: 1 };
    const q = queue();
    const events = createEventEmitter({ identity, publisher: q, media, logger, alive: () => true, spill: createEventSpill(db, identity) });
    await events.replay(); // start of the session: nothing left by a previous holder
    await events.message(msg("M1"));
    q.down = true;
    // each handler resolves (Baileys has acknowledged them): they are durable in the table
    await events.message(msg("M2"));
    await events.message(msg("M3"));
    expect(q.ids()).toEqual(["M1"]);
    expect((await createEventSpill(db, identity).oldest()).map((s) => s.event.eventId)).toEqual(["M2", "M3"]);
    q.down = false;
    await events.message(msg("M4")); // behind the spilled ones, never ahead of them
    await waitFor("the replay", () => q.published.length === 4, 10_000);
    expect(q.ids()).toEqual(["M1", "M2", "M3", "M4"]);
    expect(q.published[1]!.chatJid).toBe("5511987654321@s.whatsapp.net");
    expect(await createEventSpill(db, identity).oldest()).toEqual([]);
    await events.message(msg("M5"));
    await waitFor("M5", () => q.published.length === 5, 10_000);
    expect(q.ids()).toEqual(["M1", "M2", "M3", "M4", "M5"]);
    events.close();
  });

  it("a host that lost the lease keeps what it received for the new holder, which publishes it first", async () => {
    const identity = { companyId: 51, whatsappId: 2 };
    const oldQueue = queue();
    let held = true;
    const old = createEventEmitter({ identity, publisher: oldQueue, media, logger, alive: () => held, spill: createEventSpill(db, identity) });
    await old.replay();
    await old.message(msg("L1"));
    held = false; // another host took over; the socket is closing but Baileys already acknowledged these
    await old.message(msg("L2"));
    await old.messageUpdate({ messageId: "L1", chatJid: "5511987654321@s.whatsapp.net", ack: 4 });
    old.close();
    expect(oldQueue.ids()).toEqual(["L1"]);

    const newQueue = queue();
    const next = createEventEmitter({ identity, publisher: newQueue, media, logger, alive: () => true, spill: createEventSpill(db, identity) });
    const first = next.message(msg("L3")); // arrives on the new socket while the replay has not run yet
    await next.replay();
    await first;
    await waitFor("everything", () => newQueue.published.length === 3, 10_000);
    expect(newQueue.ids()).toEqual(["L2", "L1:ack4", "L3"]);
    next.close();
  });

  it("a crashed host keeps nothing (the provider does not acknowledge; WhatsApp delivers again)", async () => {
    const identity = { companyId: 51, whatsappId: 3 };
    const events = createEventEmitter({ identity, publisher: queue(), media, logger, alive: () => false, crashed: () => true, spill: createEventSpill(db, identity) });
    await expect(events.message(msg("C1"))).rejects.toThrow();
    expect(await createEventSpill(db, identity).oldest()).toEqual([]);
  });
});
