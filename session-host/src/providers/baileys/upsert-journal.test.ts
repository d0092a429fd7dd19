import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as realBaileys from "baileys";
import { describe, expect, it } from "vitest";
import { harness, textMsg, tick, until } from "./scripted-baileys.fixtures";
import { createUpsertJournal, type JournalMirror } from "./upsert-journal";

/**
 * Nothing acknowledged is lost (issue 29 item 3): Baileys has sent WhatsApp's receipt before our handler runs,
 * so each upsert is on disk when the handler returns, and a host killed before publishing leaves it to the
 * next holder. Played with a scripted socket: host 1 receives and dies before publishing; host 2 starts.
 */
const PN = "5511987654321@s.whatsapp.net";
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => quiet };
const memoryMirror = (): JournalMirror & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return {
    items,
    put: async (sk, line) => void items.set(sk, line),
    remove: async (sk) => void items.delete(sk),
    list: async () => [...items].map(([sk, line]) => ({ sk, line })),
  };
};
/** every journal file of connection 1/2 in the folder, concatenated */
const journalText = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith("1-2."))
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
const journalOf = (dir: string, mirror?: JournalMirror) => (identity: { companyId: number; whatsappId: number }) =>
  createUpsertJournal({ dir, identity, proto: realBaileys.proto, logger: quiet, mirror });

describe("upsert journal: nothing acknowledged is lost", () => {
  it("an upsert is on disk when the handler returns; a host killed before publishing leaves it, and the restarted host publishes it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-"));
    const host1 = harness({ hang: true, journal: journalOf(dir) });
    await host1.session.start();
    host1.latest().open();
    const msg = textMsg("WAMID1", PN, "pedido 123", { remoteJidAlt: "112233@lid" } as never);
    host1.latest().emit("messages.upsert", { type: "notify", messages: [msg] });
    // synchronously: no await between the emit and this read
    expect(journalText(dir)).toContain('"sk"');
    await tick(50);
    expect(host1.messages).toHaveLength(0); // never published: the host "dies" here
    await host1.session.stop();

    const host2 = harness({ journal: journalOf(dir) });
    await host2.session.start();
    await until("replayed", () => host2.messages.length === 1);
    expect(host2.messages[0]).toMatchObject({ id: "WAMID1", body: "pedido 123", chatJid: PN, fromMe: false, sender: { number: "5511987654321", lid: "112233@lid" } });
    // settled: a third start replays nothing
    await tick(50);
    expect(journalText(dir)).toBe("");
    const host3 = harness({ journal: journalOf(dir) });
    await host3.session.start();
    await tick(100);
    expect(host3.messages).toHaveLength(0);
  });

  it("replays before anything new of the chat, in the order received", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-"));
    const host1 = harness({ hang: true, journal: journalOf(dir) });
    await host1.session.start();
    host1.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("A1", PN, "um"), textMsg("A2", PN, "dois")] });
    host1.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("A3", PN, "três")] });
    await host1.session.stop();
    const host2 = harness({ journal: journalOf(dir) });
    await host2.session.start();
    host2.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("A4", PN, "quatro")] });
    await until("all four", () => host2.messages.length === 4);
    expect(host2.messages.map((m) => m.id)).toEqual(["A1", "A2", "A3", "A4"]);
  });

  it("after a takeover by another host (no shared disk), the table mirror brings the leftovers", async () => {
    const mirror = memoryMirror();
    const host1 = harness({ hang: true, journal: journalOf(mkdtempSync(join(tmpdir(), "journal-a-")), mirror) });
    await host1.session.start();
    host1.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("B1", PN, "oi")] });
    await until("mirrored", () => mirror.items.size === 1);
    await host1.session.stop();
    const host2 = harness({ journal: journalOf(mkdtempSync(join(tmpdir(), "journal-b-")), mirror) });
    await host2.session.start();
    await until("replayed", () => host2.messages.length === 1);
    expect(host2.messages[0]!.id).toBe("B1");
    await until("mirror settled", () => mirror.items.size === 0);
  });

  it("our own sends coming back and status broadcasts are not journaled", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-"));
    const h = harness({ hang: true, journal: journalOf(dir) });
    await h.session.start();
    h.latest().emit("messages.upsert", { type: "notify", messages: [textMsg("S1", "status@broadcast", "story")] });
    expect(journalText(dir)).toBe("");
  });
});
