import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { TTL_ATTRIBUTE } from "@atende/shared/table/table-definition";
import type { Db } from "../../platform/db/client";
import { companyPk, pad } from "../../platform/db/keys";
import type { BotKind } from "./bot-engine.port";

/**
 * One item per ticket the bot runner has touched (ADR 0026): the customer messages waiting for their turn (in
 * arrival order), the lease of the worker running this ticket's turns, which bot the saved state belongs to, the
 * engine's state, and whether the bot stopped for this ticket (handover). Its own partition per ticket, so a busy
 * bot never heats the company's partition, and kept apart from the ticket item so the runner's lease writes never
 * race the ticket's optimistic version with an attendant's accept.
 */
export type BotTicketItem = {
  companyId: number;
  ticketId: number;
  /** customer message ids waiting for a turn, oldest first */
  pending: string[];
  leaseOwner: string | null;
  leaseUntil: string | null;
  /** the bot whose state this is; a ticket moved to a queue with another bot starts that bot afresh */
  bot: { kind: BotKind; id: number } | null;
  state: Record<string, unknown> | null;
  /** set once the bot stopped for this ticket (handover, attendant, failure): later messages get no turn */
  stoppedAt: string | null;
  stopReason: string | null;
  turns: number;
  /** the ticket's contact as the intake saw it, so a turn reads the contact beside the ticket (absent on older items) */
  contactId?: number;
};

/** What a finished turn saves (all optional: only what changed). */
export type BotTurnPatch = {
  bot?: { kind: BotKind; id: number } | null;
  state?: Record<string, unknown> | null;
  stop?: { at: Date; reason: string };
};

export type AcquireResult = { item: BotTicketItem } | { heldUntil: Date } | { idle: true };

/** The runner's storage port (the DynamoDB repository below; an in-memory one in unit tests). */
export type BotTurnStore = {
  /** queues a customer message for its turn (`contactId`: the ticket's); false when the bot already stopped for this ticket */
  push(companyId: number, ticketId: number, messageId: string, now: Date, contactId?: number): Promise<boolean>;
  /** takes the ticket's lease when nobody holds it (or it expired) and a message waits */
  acquire(companyId: number, ticketId: number, owner: string, now: Date, leaseMs: number): Promise<AcquireResult>;
  /**
   * the head message's turn is over: drops it, saves `patch`, renews the lease; null when the lease was lost.
   * `release`: the holder saw no other message waiting: when none arrived meanwhile, the lease goes in the same write
   * (the answer's `leaseOwner` is null); when one did, the write is made without it and the holder goes on.
   */
  done(companyId: number, ticketId: number, owner: string, messageId: string, patch: BotTurnPatch, now: Date, leaseMs: number, opts?: { release?: boolean }): Promise<BotTicketItem | null>;
  /** lets the lease go when no message waits; false when one arrived meanwhile (the holder goes on) */
  release(companyId: number, ticketId: number, owner: string): Promise<boolean>;
  /** lets the lease go whatever waits (the holder failed: the job's retry takes over at once, not after the lease) */
  abandon(companyId: number, ticketId: number, owner: string): Promise<void>;
  get(companyId: number, ticketId: number): Promise<BotTicketItem | null>;
};

/** A ticket's bot item lives 90 days after its last turn (the ticket's conversation keeps everything said). */
const TTL_SECONDS = 90 * 24 * 3600;
const key = (companyId: number, ticketId: number) => ({ pk: `${companyPk(companyId)}#BOT#${pad(ticketId)}`, sk: "BOT" });
const isConditionFailure = (e: unknown) => (e as Error).name === "ConditionalCheckFailedException";

const toItem = (companyId: number, ticketId: number, raw: Record<string, unknown>): BotTicketItem => ({
  companyId,
  ticketId,
  pending: Array.isArray(raw.pending) ? (raw.pending as string[]) : [],
  leaseOwner: (raw.leaseOwner as string | undefined) ?? null,
  leaseUntil: (raw.leaseUntil as string | undefined) ?? null,
  bot: (raw.bot as BotTicketItem["bot"] | undefined) ?? null,
  state: (raw.state as Record<string, unknown> | undefined) ?? null,
  stoppedAt: (raw.stoppedAt as string | undefined) ?? null,
  stopReason: (raw.stopReason as string | undefined) ?? null,
  turns: Number(raw.turns ?? 0),
  ...(typeof raw.contactId === "number" ? { contactId: raw.contactId } : {}),
});

export const createBotTurnsRepository = (db: Db): BotTurnStore => {
  const T = db.tableName;
  const ttl = (now: Date) => Math.floor(now.getTime() / 1000) + TTL_SECONDS;
  return {
    async push(companyId, ticketId, messageId, now, contactId) {
      const withContact = contactId !== undefined;
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, ticketId),
            UpdateExpression: `SET #p = list_append(if_not_exists(#p, :empty), :m), #e = :e, #cid = :cid, #tid = :tid, #ttl = :ttl${withContact ? ", #ct = :ct" : ""}`,
            ConditionExpression: "attribute_not_exists(#stopped)",
            ExpressionAttributeNames: { "#p": "pending", "#e": "entity", "#cid": "companyId", "#tid": "ticketId", "#ttl": TTL_ATTRIBUTE, "#stopped": "stoppedAt", ...(withContact ? { "#ct": "contactId" } : {}) },
            ExpressionAttributeValues: { ":empty": [], ":m": [messageId], ":e": "botTicket", ":cid": companyId, ":tid": ticketId, ":ttl": ttl(now), ...(withContact ? { ":ct": contactId } : {}) },
          }),
        );
        return true;
      } catch (e) {
        if (isConditionFailure(e)) return false;
        throw e;
      }
    },

    async acquire(companyId, ticketId, owner, now, leaseMs) {
      try {
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, ticketId),
            UpdateExpression: "SET #o = :o, #u = :u",
            ConditionExpression: "size(#p) > :zero AND (attribute_not_exists(#o) OR #u < :now)",
            ExpressionAttributeNames: { "#o": "leaseOwner", "#u": "leaseUntil", "#p": "pending" },
            ExpressionAttributeValues: { ":o": owner, ":u": new Date(now.getTime() + leaseMs).toISOString(), ":now": now.toISOString(), ":zero": 0 },
            ReturnValues: "ALL_NEW",
          }),
        );
        return { item: toItem(companyId, ticketId, out.Attributes ?? {}) };
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
        const cur = await this.get(companyId, ticketId);
        if (!cur || cur.pending.length === 0) return { idle: true };
        return { heldUntil: new Date(cur.leaseUntil ?? now.toISOString()) };
      }
    },

    async done(companyId, ticketId, owner, messageId, patch, now, leaseMs, opts = {}) {
      // releasing: the lease goes too, only while this message is the last one waiting (else: without it, below)
      const release = opts.release === true;
      const names: Record<string, string> = { "#p": "pending", "#o": "leaseOwner", "#u": "leaseUntil", "#turns": "turns", "#ttl": TTL_ATTRIBUTE };
      const values: Record<string, unknown> = { ":o": owner, ":m": messageId, ":one": 1, ":ttl": ttl(now) };
      const sets = ["#ttl = :ttl"];
      if (!release) {
        values[":u"] = new Date(now.getTime() + leaseMs).toISOString();
        sets.push("#u = :u");
      }
      if (patch.bot !== undefined) {
        names["#bot"] = "bot";
        values[":bot"] = patch.bot;
        sets.push("#bot = :bot");
      }
      if (patch.state !== undefined) {
        names["#state"] = "state";
        values[":state"] = patch.state;
        sets.push("#state = :state");
      }
      if (patch.stop) {
        names["#sa"] = "stoppedAt";
        names["#sr"] = "stopReason";
        values[":sa"] = patch.stop.at.toISOString();
        values[":sr"] = patch.stop.reason;
        sets.push("#sa = if_not_exists(#sa, :sa)", "#sr = if_not_exists(#sr, :sr)");
      }
      try {
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, ticketId),
            UpdateExpression: `SET ${sets.join(", ")} REMOVE #p[0]${release ? ", #o, #u" : ""} ADD #turns :one`,
            ConditionExpression: release ? "#o = :o AND #p[0] = :m AND size(#p) = :one" : "#o = :o AND #p[0] = :m",
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: "ALL_NEW",
          }),
        );
        return toItem(companyId, ticketId, out.Attributes ?? {});
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
        // another message arrived meanwhile (or the lease was lost: the plain write fails the same way)
        return release ? this.done(companyId, ticketId, owner, messageId, patch, now, leaseMs) : null;
      }
    },

    async release(companyId, ticketId, owner) {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, ticketId),
            UpdateExpression: "REMOVE #o, #u",
            ConditionExpression: "#o = :o AND size(#p) = :zero",
            ExpressionAttributeNames: { "#o": "leaseOwner", "#u": "leaseUntil", "#p": "pending" },
            ExpressionAttributeValues: { ":o": owner, ":zero": 0 },
          }),
        );
        return true;
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
        const cur = await this.get(companyId, ticketId);
        // lost the lease (expired and taken): the new holder goes on; otherwise messages arrived: go on ourselves
        return !cur || cur.leaseOwner !== owner;
      }
    },

    async abandon(companyId, ticketId, owner) {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, ticketId),
            UpdateExpression: "REMOVE #o, #u",
            ConditionExpression: "#o = :o",
            ExpressionAttributeNames: { "#o": "leaseOwner", "#u": "leaseUntil" },
            ExpressionAttributeValues: { ":o": owner },
          }),
        );
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
      }
    },

    async get(companyId, ticketId) {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, ticketId), ConsistentRead: true }));
      return out.Item ? toItem(companyId, ticketId, out.Item) : null;
    },
  };
};

/** Unit tests: the same contract in memory. */
export const createMemoryBotTurnStore = (): BotTurnStore & { items: Map<string, BotTicketItem> } => {
  const items = new Map<string, BotTicketItem>();
  const k = (c: number, t: number) => `${c}:${t}`;
  const copy = (i: BotTicketItem): BotTicketItem => structuredClone(i);
  return {
    items,
    async push(companyId, ticketId, messageId, _now, contactId) {
      const cur = items.get(k(companyId, ticketId)) ?? {
        companyId,
        ticketId,
        pending: [],
        leaseOwner: null,
        leaseUntil: null,
        bot: null,
        state: null,
        stoppedAt: null,
        stopReason: null,
        turns: 0,
      };
      if (cur.stoppedAt) return false;
      cur.pending.push(messageId);
      if (contactId !== undefined) cur.contactId = contactId;
      items.set(k(companyId, ticketId), cur);
      return true;
    },
    async acquire(companyId, ticketId, owner, now, leaseMs) {
      const cur = items.get(k(companyId, ticketId));
      if (!cur || cur.pending.length === 0) return { idle: true };
      if (cur.leaseOwner && cur.leaseUntil && cur.leaseUntil >= now.toISOString()) return { heldUntil: new Date(cur.leaseUntil) };
      cur.leaseOwner = owner;
      cur.leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
      return { item: copy(cur) };
    },
    async done(companyId, ticketId, owner, messageId, patch, now, leaseMs, opts = {}) {
      const cur = items.get(k(companyId, ticketId));
      if (!cur || cur.leaseOwner !== owner || cur.pending[0] !== messageId) return null;
      const release = opts.release === true && cur.pending.length === 1;
      cur.pending.shift();
      cur.leaseUntil = release ? null : new Date(now.getTime() + leaseMs).toISOString();
      if (release) cur.leaseOwner = null;
      cur.turns += 1;
      if (patch.bot !== undefined) cur.bot = patch.bot;
      if (patch.state !== undefined) cur.state = patch.state;
      if (patch.stop && !cur.stoppedAt) {
        cur.stoppedAt = patch.stop.at.toISOString();
        cur.stopReason = patch.stop.reason;
      }
      return copy(cur);
    },
    async release(companyId, ticketId, owner) {
      const cur = items.get(k(companyId, ticketId));
      if (!cur || cur.leaseOwner !== owner) return true;
      if (cur.pending.length > 0) return false;
      cur.leaseOwner = null;
      cur.leaseUntil = null;
      return true;
    },
    async abandon(companyId, ticketId, owner) {
      const cur = items.get(k(companyId, ticketId));
      if (cur && cur.leaseOwner === owner) {
        cur.leaseOwner = null;
        cur.leaseUntil = null;
      }
    },
    async get(companyId, ticketId) {
      const cur = items.get(k(companyId, ticketId));
      return cur ? copy(cur) : null;
    },
  };
};

/**
 * Names the bot of a ticket before its first turn (issue 30: a flow a keyword started, which neither the queue nor the
 * connection names): the resolver finds it in the item. A ticket whose bot already stopped keeps its stop.
 */
export const createBotStarter = (db: Db) => async (companyId: number, ticketId: number, bot: { kind: BotKind; id: number }, now: Date): Promise<void> => {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(companyId, ticketId),
        UpdateExpression: "SET #b = :b, #e = :e, #cid = :cid, #tid = :tid, #ttl = :ttl, #p = if_not_exists(#p, :empty)",
        ConditionExpression: "attribute_not_exists(#stopped)",
        ExpressionAttributeNames: { "#b": "bot", "#e": "entity", "#cid": "companyId", "#tid": "ticketId", "#ttl": TTL_ATTRIBUTE, "#stopped": "stoppedAt", "#p": "pending" },
        ExpressionAttributeValues: { ":b": bot, ":e": "botTicket", ":cid": companyId, ":tid": ticketId, ":ttl": Math.floor(now.getTime() / 1000) + TTL_SECONDS, ":empty": [] },
      }),
    );
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
  }
};
