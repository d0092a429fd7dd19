import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../../platform/db/client";
import { batchGetAll } from "../../../platform/db/batch-get";
import { companyPk, pad } from "../../../platform/db/keys";
import { contactTicketKey, cycleKey, key as ticketKey, openLockKey, ratingWaitKey, tagCopyKey } from "../tickets/ticket-keys";
import type { ContactIdentity } from "./contact-identity";

/**
 * The items a contact merge moves (docs/adr/0103-contact-merge.md), by the keys each feature documents (the same key
 * map the LGPD erasure reads, lgpd/personal-data.repository.ts): the inbox's own (tickets, their pointers, locks,
 * notes, tag copies, cycles, rating waits, messages, identities) and, by their documented keys, other features' items
 * that name a contact (schedules, opt-outs, LGPD jobs, contact-list entries). Every write is one small conditional
 * update, so running a step again after a crash changes nothing twice: an item already moved no longer answers the
 * merged contact's queries.
 */
type Raw = Record<string, unknown> & { pk: string; sk: string };
const asRaw = (items: Record<string, unknown>[] | undefined) => (items ?? []) as Raw[];
const isCondition = (e: unknown) => (e as Error).name === "ConditionalCheckFailedException";

/** The merge's own item: which contact the merged one goes into, while it runs (a retry finishes it). */
const markerKey = (companyId: number, fromId: number) => ({ pk: `${companyPk(companyId)}#CMERGE#${fromId}`, sk: "CMERGE" });
/** A "same contact?" offer the attendant dismissed (docs/adr/0104): never offered again for that pair. */
const dismissKey = (companyId: number, contactId: number, otherId: number) => ({ pk: `${companyPk(companyId)}#CSAME#${contactId}`, sk: pad(otherId) });
/** What a website visitor typed in the widget (webchat.repository writes it with the session; docs/adr/0104). */
const visitorKey = (companyId: number, visitorId: string) => ({ pk: companyPk(companyId), sk: `WCVISITOR#${visitorId}` });
const identityKey = (companyId: number, i: ContactIdentity) => ({ pk: `${companyPk(companyId)}#CID#${i.kind}#${i.value}`, sk: "CID" });
const conversationPk = (companyId: number, contactId: number) => `${companyPk(companyId)}#CMSG#${contactId}`;
const lgpdJobsPk = (companyId: number, contactId: number) => `${companyPk(companyId)}#LGPDJOBS#${contactId}`;
const notesPk = (companyId: number, ticketId: number) => `${companyPk(companyId)}#TNOTES#${ticketId}`;

/** Concurrent single-item writes per step (the 5,000-message bench: docs/scale.md). */
const PARALLEL = 16;
const inParallel = async <T>(items: T[], run: (item: T) => Promise<unknown>) => {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(run));
};

export const createContactMergeRepository = (db: Db) => {
  const T = db.tableName;
  const send = db.doc.send.bind(db.doc);

  /** Every item of a partition (base table or an index), following pages. */
  const queryAll = async (opts: { index?: "gsi1" | "gsi2"; pk: string; projection?: string; filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> } }) => {
    const items: Raw[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await send(
        new QueryCommand({
          TableName: T,
          ...(opts.index ? { IndexName: opts.index } : {}),
          KeyConditionExpression: "#pk = :pk",
          ExpressionAttributeNames: { "#pk": opts.index ? `${opts.index}pk` : "pk", ...opts.filter?.names },
          ExpressionAttributeValues: { ":pk": opts.pk, ...opts.filter?.values },
          ...(opts.filter ? { FilterExpression: opts.filter.expression } : {}),
          ExclusiveStartKey: start,
        }),
      );
      items.push(...asRaw(out.Items));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  };
  const countAll = async (index: "gsi2", pk: string) => {
    let total = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await send(new QueryCommand({ TableName: T, IndexName: index, KeyConditionExpression: `${index}pk = :pk`, ExpressionAttributeValues: { ":pk": pk }, Select: "COUNT", ExclusiveStartKey: start }));
      total += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return total;
  };
  /** Sets attributes of an item still naming `fromId` (nothing when it is gone or already moved). */
  const repoint = async (k: { pk: string; sk: string }, fromId: number, set: Record<string, unknown>, bumpVersion = false) => {
    const names: Record<string, string> = { "#cid": "contactId" };
    const values: Record<string, unknown> = { ":from": fromId };
    const sets = Object.entries(set).map(([name, v], i) => ((names[`#s${i}`] = name), (values[`:s${i}`] = v), `#s${i} = :s${i}`));
    if (bumpVersion) {
      names["#v"] = "version";
      values[":one"] = 1;
    }
    try {
      await send(
        new UpdateCommand({
          TableName: T,
          Key: k,
          UpdateExpression: `SET ${sets.join(", ")}${bumpVersion ? " ADD #v :one" : ""}`,
          ConditionExpression: "attribute_exists(pk) AND #cid = :from",
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (e) {
      if (isCondition(e)) return false;
      throw e;
    }
  };
  /** Moves an item to a new key (copy, then delete the old one): the copy is kept if one exists already. */
  const moveItem = async (item: Raw, to: { pk: string; sk: string }, set: Record<string, unknown> = {}) => {
    try {
      await send(new PutCommand({ TableName: T, Item: { ...item, ...set, ...to }, ConditionExpression: "attribute_not_exists(pk)" }));
    } catch (e) {
      if (!isCondition(e)) throw e;
    }
    await send(new DeleteCommand({ TableName: T, Key: { pk: item.pk, sk: item.sk } }));
  };

  return {
    async marker(companyId: number, fromId: number): Promise<number | null> {
      const out = await send(new GetCommand({ TableName: T, Key: markerKey(companyId, fromId), ConsistentRead: true }));
      return out.Item ? Number(out.Item.intoId) : null;
    },
    /** false when another merge of this contact (into another contact) holds the marker */
    async putMarker(companyId: number, fromId: number, intoId: number, now: Date): Promise<boolean> {
      try {
        await send(
          new PutCommand({
            TableName: T,
            Item: { ...markerKey(companyId, fromId), entity: "contactMerge", intoId, startedAt: now.toISOString() },
            ConditionExpression: "attribute_not_exists(pk) OR intoId = :i",
            ExpressionAttributeValues: { ":i": intoId },
          }),
        );
        return true;
      } catch (e) {
        if (isCondition(e)) return false;
        throw e;
      }
    },
    async deleteMarker(companyId: number, fromId: number) {
      await send(new DeleteCommand({ TableName: T, Key: markerKey(companyId, fromId) }));
    },

    /** The identities among `candidates` that still point at `contactId`. */
    async identitiesHeld(companyId: number, contactId: number, candidates: ContactIdentity[]): Promise<ContactIdentity[]> {
      const items = await batchGetAll(db, candidates.map((i) => identityKey(companyId, i)), { consistent: true });
      const held = new Set(items.filter((i) => Number(i.contactId) === contactId).map((i) => String(i.pk)));
      return candidates.filter((i) => held.has(identityKey(companyId, i).pk));
    },
    async repointIdentity(companyId: number, identity: ContactIdentity, fromId: number, intoId: number) {
      return repoint(identityKey(companyId, identity), fromId, { contactId: intoId });
    },

    /** The tickets of a contact (through its `CT#` pointers), whole items. */
    async ticketsOf(companyId: number, contactId: number): Promise<Raw[]> {
      const pointers = await queryAll({ pk: contactTicketKey(companyId, contactId, 0).pk });
      const ids = pointers.map((p) => Number(p.ticketId));
      return asRaw(await batchGetAll(db, ids.map((id) => ticketKey(companyId, id)), { consistent: true })).filter((t) => Number(t.contactId) === contactId);
    },
    async openLockHolder(companyId: number, contactId: number, whatsappId: number | null): Promise<number | null> {
      const out = await send(new GetCommand({ TableName: T, Key: openLockKey(companyId, contactId, whatsappId), ConsistentRead: true }));
      return out.Item ? Number(out.Item.ticketId) : null;
    },
    async notesOf(companyId: number, ticketId: number): Promise<Raw[]> {
      return queryAll({ index: "gsi1", pk: notesPk(companyId, ticketId) });
    },
    /**
     * One ticket to the kept contact: its item (one more `version`, so a write read before this one re-reads), its
     * tag copies, cycle and notes, its open lock and rating wait, and last its `CT#` pointer (the key a retry finds
     * the ticket by, so it moves once everything else did).
     */
    async moveTicket(companyId: number, ticket: Raw, fromId: number, intoId: number): Promise<{ notes: number }> {
      const id = Number(ticket.id);
      const whatsappId = ticket.whatsappId === null || ticket.whatsappId === undefined ? null : Number(ticket.whatsappId);
      await repoint(ticketKey(companyId, id), fromId, { contactId: intoId }, true);
      const copies = await queryAll({ pk: tagCopyKey(companyId, id, 0).pk });
      await inParallel(copies, (c) => repoint({ pk: c.pk, sk: c.sk }, fromId, { contactId: intoId }));
      await repoint(cycleKey(companyId, id), fromId, { contactId: intoId });
      const notes = await this.notesOf(companyId, id);
      await inParallel(notes, (n) => repoint({ pk: n.pk, sk: n.sk }, fromId, { contactId: intoId }));
      const lock = await send(new GetCommand({ TableName: T, Key: openLockKey(companyId, fromId, whatsappId), ConsistentRead: true }));
      if (lock.Item && Number(lock.Item.ticketId) === id) await moveItem(lock.Item as Raw, openLockKey(companyId, intoId, whatsappId));
      const wait = await send(new GetCommand({ TableName: T, Key: ratingWaitKey(companyId, fromId, whatsappId), ConsistentRead: true }));
      if (wait.Item) await moveItem(wait.Item as Raw, ratingWaitKey(companyId, intoId, whatsappId));
      const pointer = await send(new GetCommand({ TableName: T, Key: contactTicketKey(companyId, fromId, id), ConsistentRead: true }));
      if (pointer.Item) await moveItem(pointer.Item as Raw, contactTicketKey(companyId, intoId, id));
      return { notes: notes.filter((n) => Number(n.contactId) === fromId).length };
    },

    async countMessages(companyId: number, contactId: number) {
      return countAll("gsi2", conversationPk(companyId, contactId));
    },
    /**
     * Moves the contact's messages, a page at a time: each update takes the message out of the merged contact's
     * conversation partition, so the next page (and a retry) reads only what is left. Answers how many moved.
     */
    async moveMessages(companyId: number, fromId: number, intoId: number, pageSize = 500): Promise<number> {
      let moved = 0;
      for (;;) {
        const out = await send(
          new QueryCommand({ TableName: T, IndexName: "gsi2", KeyConditionExpression: "gsi2pk = :pk", ExpressionAttributeValues: { ":pk": conversationPk(companyId, fromId) }, ProjectionExpression: "pk, sk", Limit: pageSize }),
        );
        const keys = asRaw(out.Items);
        if (!keys.length) return moved;
        await inParallel(keys, async (k) => {
          if (await repoint({ pk: k.pk, sk: k.sk }, fromId, { contactId: intoId, gsi2pk: conversationPk(companyId, intoId) })) moved++;
        });
      }
    },

    /** The company's schedules naming the contact (their list index, filtered: a company has few schedules). */
    async schedulesOf(companyId: number, contactId: number): Promise<Raw[]> {
      return queryAll({ index: "gsi1", pk: `${companyPk(companyId)}#SCH`, filter: { expression: "#cid = :cid", names: { "#cid": "contactId" }, values: { ":cid": contactId } } });
    },
    async lgpdJobsOf(companyId: number, contactId: number): Promise<Raw[]> {
      return queryAll({ index: "gsi1", pk: lgpdJobsPk(companyId, contactId) });
    },
    async moveSchedule(companyId: number, s: Raw, fromId: number, intoId: number) {
      return repoint({ pk: s.pk, sk: s.sk }, fromId, { contactId: intoId });
    },
    async moveLgpdJob(companyId: number, j: Raw, fromId: number, intoId: number) {
      return repoint({ pk: j.pk, sk: j.sk }, fromId, { contactId: intoId, gsi1pk: lgpdJobsPk(companyId, intoId) });
    },

    /** The opt-out of a number (`CO#c#OPTOUT` / `N#<number>`, lgpd/opt-outs.repository.ts). */
    async optOut(companyId: number, number: string): Promise<Raw | null> {
      if (!number) return null;
      const out = await send(new GetCommand({ TableName: T, Key: { pk: `${companyPk(companyId)}#OPTOUT`, sk: `N#${number}` }, ConsistentRead: true }));
      return (out.Item as Raw | undefined) ?? null;
    },
    /**
     * The merged contact's opt-out now names the kept contact, and the kept contact's own number is opted out too
     * (the person asked not to be messaged; the kept number keeps the first opt-out's time and reason).
     */
    async moveOptOut(companyId: number, optOut: Raw, fromId: number, intoId: number, intoNumber: string) {
      await repoint({ pk: optOut.pk, sk: optOut.sk }, fromId, { contactId: intoId });
      if (!intoNumber || optOut.sk === `N#${intoNumber}`) return;
      try {
        await send(
          new PutCommand({
            TableName: T,
            Item: { ...optOut, sk: `N#${intoNumber}`, number: intoNumber, contactId: intoId, gsi1sk: `${String(optOut.optedOutAt)}#${intoNumber}` },
            ConditionExpression: "attribute_not_exists(pk)",
          }),
        );
      } catch (e) {
        if (!isCondition(e)) throw e;
      }
    },

    /** Contact-list entries holding one of these numbers (the company's lists × the numbers: one BatchGet per 100). */
    async listEntries(companyId: number, numbers: string[]): Promise<Raw[]> {
      if (!numbers.length) return [];
      const lists = await queryAll({ index: "gsi1", pk: `${companyPk(companyId)}#CONTACTLIST` });
      return asRaw(await batchGetAll(db, lists.flatMap((l) => numbers.map((n) => ({ pk: `${companyPk(companyId)}#CLIST#${Number(l.id)}`, sk: `N#${n}` })))));
    },

    /** A website visitor's phone and e-mail as typed in the widget. */
    async visitor(companyId: number, visitorId: string): Promise<{ email?: string; phone?: string } | null> {
      const out = await send(new GetCommand({ TableName: T, Key: visitorKey(companyId, visitorId) }));
      return out.Item ? { email: out.Item.email ? String(out.Item.email) : undefined, phone: out.Item.phone ? String(out.Item.phone) : undefined } : null;
    },
    async dismissed(companyId: number, contactId: number): Promise<Set<number>> {
      const items = await queryAll({ pk: dismissKey(companyId, contactId, 0).pk });
      return new Set(items.map((i) => Number(i.sk)));
    },
    async dismiss(companyId: number, contactId: number, otherId: number, byUserId: number, now: Date) {
      await send(new PutCommand({ TableName: T, Item: { ...dismissKey(companyId, contactId, otherId), entity: "contactSameDismissed", byUserId, at: now.toISOString() } }));
    },
    async forgetDismissals(companyId: number, contactId: number) {
      const items = await queryAll({ pk: dismissKey(companyId, contactId, 0).pk });
      await inParallel(items, (i) => send(new DeleteCommand({ TableName: T, Key: { pk: i.pk, sk: i.sk } })));
    },
  };
};
export type ContactMergeRepository = ReturnType<typeof createContactMergeRepository>;
