import { appendFileSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DeleteCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { WAMessage } from "baileys";
import type { Db } from "../../platform/db";
import type { Logger } from "../../platform/logger";
import type { SessionIdentity } from "../provider.port";
import type { Baileys } from "./support";

/**
 * Baileys sends WhatsApp's delivery receipt before our `messages.upsert` handler runs: from then on WhatsApp
 * will not send the message again, so a host that dies before publishing it would lose it. Each upsert is
 * therefore written here first — synchronously, inside the handler, before any await — as the raw key (JSON,
 * v7's `remoteJidAlt`/`participantAlt` included) and the message's protobuf, and settled once its event is
 * durable (on inbound.fifo or in the event spill). What is not settled is replayed, in order, when the
 * connection starts again: on this machine from the file, on another host (a takeover) from the table mirror.
 * Duplicates of what did reach the queue are absorbed downstream (the event id is the message id).
 */
export type JournalEntry = { sk: string; type: "notify" | "append"; msg: WAMessage };

export type UpsertJournal = {
  /** synchronous: the entry is on disk when it returns */
  append(msg: WAMessage, type: "notify" | "append"): string;
  /** the entry's event is durable: forget it */
  settle(sk: string): void;
  /** entries not settled, oldest first (the file's and the table mirror's, each once) */
  pending(): Promise<JournalEntry[]>;
};

/** The table mirror: what another host replays after a takeover (puts started at once, deletes after them). */
export type JournalMirror = {
  put(sk: string, line: string): Promise<void>;
  remove(sk: string): Promise<void>;
  list(): Promise<{ sk: string; line: string }[]>;
};

const TTL_SECONDS = 30 * 86_400;
export const createTableJournalMirror = (db: Db, identity: SessionIdentity): JournalMirror => {
  const pk = `CO#${identity.companyId}#WARAW#${identity.whatsappId}`;
  return {
    async put(sk, line) {
      await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { pk, sk, r: line, ttl: Math.floor(Date.now() / 1000) + TTL_SECONDS } }));
    },
    async remove(sk) {
      await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: { pk, sk } }));
    },
    async list() {
      const out: { sk: string; line: string }[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.doc.send(
          new QueryCommand({ TableName: db.tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk }, ConsistentRead: true, ExclusiveStartKey: start }),
        );
        out.push(...(page.Items ?? []).map((i) => ({ sk: i.sk as string, line: i.r as string })));
        start = page.LastEvaluatedKey;
      } while (start);
      return out;
    },
  };
};

let seq = 0;
let instances = 0;
const skNow = () => `${String(Date.now()).padStart(15, "0")}#${process.pid}#${String(++seq).padStart(9, "0")}`;

export const createUpsertJournal = (opts: { dir: string; identity: SessionIdentity; proto: Baileys["proto"]; logger: Logger; mirror?: JournalMirror }): UpsertJournal => {
  const { proto, logger, mirror } = opts;
  mkdirSync(opts.dir, { recursive: true });
  // a file per session instance: an instance that lost the connection and one that took it back in the same
  // process never truncate each other's entries; a new instance adopts the files it finds (pending)
  const prefix = `${opts.identity.companyId}-${opts.identity.whatsappId}.`;
  const file = join(opts.dir, `${prefix}${process.pid}-${++instances}.jsonl`);
  /** entries of this process not settled yet, and their mirror put in flight (a delete must follow it) */
  const open = new Map<string, Promise<void>>();
  const encode = (msg: WAMessage, type: string) =>
    JSON.stringify({ t: type, k: msg.key, w: Buffer.from(proto.WebMessageInfo.encode(msg as never).finish()).toString("base64") });
  const decode = (sk: string, line: string): JournalEntry => {
    const e = JSON.parse(line) as { t: "notify" | "append"; k: WAMessage["key"]; w: string };
    const info = proto.WebMessageInfo.decode(Buffer.from(e.w, "base64")) as unknown as WAMessage;
    info.key = e.k; // the raw key: v7's *Alt fields are not in the protobuf
    return { sk, type: e.t, msg: info };
  };
  const linesOf = (path: string): { sk: string; line?: string; done?: boolean }[] => {
    let text = "";
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return [];
    }
    return text
      .split("\n")
      .filter(Boolean)
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as { sk: string; line?: string; done?: boolean }];
        } catch {
          return []; // a line cut by a crash mid-write: the message itself was not acknowledged to us yet
        }
      });
  };
  return {
    append(msg, type) {
      const sk = skNow();
      const line = encode(msg, type);
      appendFileSync(file, JSON.stringify({ sk, line }) + "\n");
      open.set(
        sk,
        mirror
          ? mirror.put(sk, line).catch((err) => logger.warn("upsert not mirrored to the table (kept on disk)", { sk, err: String(err) }))
          : Promise.resolve(),
      );
      return sk;
    },
    settle(sk) {
      const put = open.get(sk);
      open.delete(sk);
      appendFileSync(file, JSON.stringify({ sk, done: true }) + "\n");
      // nothing open any more: the file starts over (nothing in it is needed)
      if (open.size === 0) writeFileSync(file, "");
      if (mirror) void (put ?? Promise.resolve()).then(() => mirror.remove(sk)).catch((err) => logger.warn("mirrored upsert not removed", { sk, err: String(err) }));
    },
    async pending() {
      const byKey = new Map<string, string>();
      const done = new Set<string>();
      const files = readdirSync(opts.dir).filter((f) => f.startsWith(prefix) && f.endsWith(".jsonl")).map((f) => join(opts.dir, f));
      for (const path of files)
        for (const e of linesOf(path)) {
          if (e.done) done.add(e.sk);
          else if (e.line) byKey.set(e.sk, e.line);
        }
      // other instances' leftovers become this instance's (synchronously: no append of theirs in between)
      for (const [sk, line] of byKey) if (!done.has(sk) && !open.has(sk)) appendFileSync(file, JSON.stringify({ sk, line }) + "\n");
      for (const path of files) if (path !== file) unlinkSync(path);
      if (mirror) for (const e of await mirror.list()) if (!byKey.has(e.sk)) byKey.set(e.sk, e.line);
      const entries: JournalEntry[] = [];
      for (const [sk, line] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (done.has(sk) || open.has(sk)) continue;
        try {
          entries.push(decode(sk, line));
        } catch (err) {
          logger.error("journaled upsert unreadable: skipped", { sk, err: String(err) });
        }
      }
      // replayed entries are this process's to settle now
      for (const e of entries) open.set(e.sk, Promise.resolve());
      return entries;
    },
  };
};
