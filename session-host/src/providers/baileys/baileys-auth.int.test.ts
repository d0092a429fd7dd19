import { EventEmitter } from "node:events";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import "../../testing/provided-context";
import { createTableAuthStore, LeaseLostError } from "../../auth/table-auth.store";
import { createLeaseRepository } from "../../leases/lease.repository";
import { createDb, type Db } from "../../platform/db";
import { withTransactionConflicts } from "../../testing/conflicting-db";
import { createTestTable } from "../../testing/test-env";
import { createBaileysAuth } from "./baileys-auth";

let db: Db;
beforeAll(async () => {
  const tableName = await createTestTable(inject("dynamoEndpoint"));
  db = createDb({ tableName, endpoint: inject("dynamoEndpoint"), region: "us-east-1" });
});
afterAll(() => db?.doc.destroy());

const quiet = pino({ level: "silent" });

describe("Baileys auth over the table, with the lease held (DynamoDB Local)", () => {
  it("first login: creds.update during the 812 pre-key upload and heartbeats leave the session held and every key stored", async () => {
    const b = await import("baileys");
    const id = { companyId: 41, whatsappId: 1 };
    // DynamoDB's rule for items in an in-flight transaction, which DynamoDB Local does not apply
    const conflicting = withTransactionConflicts(db);
    const leases = createLeaseRepository(conflicting.db);
    const held = (await leases.acquire(id, "host-a", "baileys", Date.now(), 60_000))!;
    let lostLease = 0;
    const store = createTableAuthStore({ db: conflicting.db, leases, held: () => held, onLeaseLost: () => lostLease++ });

    // As the provider wires Baileys: creds from the table, keys behind Baileys' cache, saved on creds.update.
    const { state, saveCreds } = await createBaileysAuth(b, store, quiet);
    const creds = state.creds;
    const saves: Promise<unknown>[] = [];
    const ev = new EventEmitter();
    ev.on("creds.update", (u) => Object.assign(creds, u)); // Baileys' own listener (socket.js:843) runs first
    ev.on("creds.update", () => saves.push(saveCreds().catch((e) => e)));
    // As makeWASocket does (socket.js:270): transactions over the cacheable store, Baileys' default retries.
    const keys = b.addTransactionCapability(state.keys, quiet, { maxCommitRetries: 10, delayBetweenTriesMs: 3000 });

    let beating = true;
    const beats: unknown[] = [];
    const heartbeat = (async () => {
      while (beating) {
        beats.push(await leases.renew(held, Date.now(), 60_000).catch((e: Error) => e.name));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    // uploadPreKeys (socket.js:355-373): pre-keys generated in a transaction, creds.update emitted inside it.
    const upload = keys.transaction(async () => {
      const { update } = await b.getNextPreKeysNode({ creds, keys }, b.INITIAL_PREKEY_COUNT);
      ev.emit("creds.update", update);
      return update;
    }, "upload-pre-keys");
    // Meanwhile the login goes on: creds change (me, lid, account sync) while the transaction commits.
    for (let i = 0; i < 20; i++) {
      ev.emit("creds.update", { accountSyncCounter: i + 1 });
      await new Promise((r) => setTimeout(r, 10));
    }
    await upload;
    beating = false;
    await heartbeat;
    const saveResults = await Promise.all(saves);

    expect(conflicting.stats.conflicts).toBeGreaterThan(0); // the race really happened
    expect(lostLease).toBe(0);
    expect(saveResults.filter((r) => r instanceof Error)).toEqual([]);
    expect(beats.filter((r) => r !== true)).toEqual([]);
    // every pre-key reached the table (a fresh store reads from the table, not the cache)
    const fresh = createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => lostLease++ });
    const ids = Array.from({ length: b.INITIAL_PREKEY_COUNT }, (_, i) => String(i + 1));
    expect(Object.keys(await fresh.get("pre-key", ids))).toHaveLength(b.INITIAL_PREKEY_COUNT);
    const stored = (await fresh.get("creds", ["main"])).main as typeof creds;
    expect(stored.nextPreKeyId).toBe(b.INITIAL_PREKEY_COUNT + 1);
    expect(stored.accountSyncCounter).toBe(20);
  });

  it("only the lease condition failing is a lost lease: another host's takeover still stops the writes", async () => {
    const b = await import("baileys");
    const id = { companyId: 41, whatsappId: 2 };
    const conflicting = withTransactionConflicts(db);
    const leases = createLeaseRepository(conflicting.db);
    const held = (await leases.acquire(id, "host-a", "baileys", Date.now() - 120_000, 60_000))!; // already expired
    let lostLease = 0;
    const store = createTableAuthStore({ db: conflicting.db, leases, held: () => held, onLeaseLost: () => lostLease++ });
    const { state, saveCreds } = await createBaileysAuth(b, store, quiet);
    await saveCreds();
    expect(await createLeaseRepository(db).acquire(id, "host-b", "baileys", Date.now(), 60_000)).toMatchObject({ owner: "host-b" });
    await expect(state.keys.set({ "pre-key": { "1": { public: Buffer.alloc(32, 1), private: Buffer.alloc(32, 2) } } })).rejects.toThrow(LeaseLostError);
    await expect(saveCreds()).rejects.toThrow(LeaseLostError);
    expect(lostLease).toBe(2);
  });

  it("an app-state sync key survives the table byte-exactly and expands to the same keys", async () => {
    const b = await import("baileys");
    const { expandAppStateKeys } = await import("whatsapp-rust-bridge");
    const id = { companyId: 41, whatsappId: 3 };
    const leases = createLeaseRepository(db);
    const held = (await leases.acquire(id, "host-a", "baileys", Date.now(), 60_000))!;
    // What the phone shares (an appStateSyncKeyShare, decoded from the wire as process-message.js:281-287 gets it)
    const wire = b.proto.Message.AppStateSyncKeyShare.encode({
      keys: [{ keyId: { keyId: Buffer.from("AAAAAGZq", "base64") }, keyData: { keyData: Buffer.alloc(32, 7).map((x, i) => x ^ i), fingerprint: { rawId: 12345, currentIndex: 3, deviceIndexes: [0, 1] }, timestamp: 1_732_400_000_000 } }],
    }).finish();
    const [shared] = b.proto.Message.AppStateSyncKeyShare.decode(wire).keys;
    const keyId = Buffer.from(shared!.keyId!.keyId!).toString("base64");
    const writer = await createBaileysAuth(b, createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => undefined }), quiet);
    await writer.state.keys.set({ "app-state-sync-key": { [keyId]: shared!.keyData as never } });

    // another process (a deploy, a takeover) reads it from the table
    const reader = await createBaileysAuth(b, createTableAuthStore({ db, leases, held: () => held, onLeaseLost: () => undefined }), quiet);
    const back = (await reader.state.keys.get("app-state-sync-key", [keyId]))[keyId]!;
    const original = shared!.keyData!;
    expect(Buffer.from(b.proto.Message.AppStateSyncKeyData.encode(back).finish())).toEqual(Buffer.from(b.proto.Message.AppStateSyncKeyData.encode(original).finish()));
    expect(Buffer.from(back.keyData!)).toEqual(Buffer.from(original.keyData!));
    const expand = (k: Uint8Array) => {
      const e = expandAppStateKeys(k);
      return [e.indexKey, e.valueEncryptionKey, e.valueMacKey, e.snapshotMacKey, e.patchMacKey].map((x) => Buffer.from(x).toString("hex"));
    };
    expect(expand(back.keyData!)).toEqual(expand(original.keyData!));
  });
});
