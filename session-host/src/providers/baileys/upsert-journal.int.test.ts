import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as realBaileys from "baileys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import "../../testing/provided-context";
import { createDb, type Db } from "../../platform/db";
import { createTestTable } from "../../testing/test-env";
import { createTableJournalMirror, createUpsertJournal } from "./upsert-journal";

let db: Db;
beforeAll(async () => {
  const tableName = await createTestTable(inject("dynamoEndpoint"));
  db = createDb({ tableName, endpoint: inject("dynamoEndpoint"), region: "us-east-1" });
});
afterAll(() => db?.doc.destroy());

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => quiet };
const identity = { companyId: 71, whatsappId: 3 };
const msg = (id: string) => ({ key: { remoteJid: "5511987654321@s.whatsapp.net", id, fromMe: false, remoteJidAlt: "998877@lid" }, message: { conversation: `m ${id}` }, messageTimestamp: 1_763_800_000 });

describe("upsert journal's table mirror (DynamoDB Local)", () => {
  it("a host on another machine finds what a dead host journaled, in order, raw key included; settled entries leave the table", async () => {
    const dead = createUpsertJournal({ dir: mkdtempSync(join(tmpdir(), "j-a-")), identity, proto: realBaileys.proto, logger: quiet, mirror: createTableJournalMirror(db, identity) });
    dead.append(msg("M1") as never, "notify");
    dead.append(msg("M2") as never, "notify");
    await new Promise((r) => setTimeout(r, 300)); // the mirror's puts, started in the handler, land
    const next = createUpsertJournal({ dir: mkdtempSync(join(tmpdir(), "j-b-")), identity, proto: realBaileys.proto, logger: quiet, mirror: createTableJournalMirror(db, identity) });
    const pending = await next.pending();
    expect(pending.map((e) => e.msg.key.id)).toEqual(["M1", "M2"]);
    expect(pending[0]!.msg.key.remoteJidAlt).toBe("998877@lid");
    expect(pending[0]!.msg.message?.conversation).toBe("m M1");
    for (const e of pending) next.settle(e.sk);
    await new Promise((r) => setTimeout(r, 300));
    expect(await createTableJournalMirror(db, identity).list()).toEqual([]);
  });
});
