import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { TicketChange, TicketCycle } from "@atende/shared/contracts/http/tickets";
import type { Db } from "../../../platform/db/client";
import { batchGetAll } from "../../../platform/db/batch-get";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import { contactFromItem, contactItemKey } from "../contacts/contacts.repository";
import { toChange, toCycle, toTicket, type TicketRecord } from "./ticket-record";
import { changeKey, contactTicketKey, cycleKey, cycleMonthPk, key, openLockKey, protocolKey, ratingWaitKey, uuidKey } from "./ticket-keys";
import { createTicketListReads } from "./ticket-list-reads";
import { createTicketWrites } from "./ticket-writes";
import { createContactCardFollow } from "./contact-card-follow";

// The tickets repository is composed of parts (what a ticket is, its keys, its lists' reads, its writes, its
// contact cards); the rest of the inbox imports it from here.
export {
  NEW_BOT,
  newTicketFields,
  contactCardOf,
  CONTACT_CARD_MAX_BYTES,
  contactCardFields,
  sameContactCard,
  type BotState,
  type TicketCycleTimes,
  type ContactCard,
  type TicketRecord,
  type TicketCard,
} from "./ticket-record";
export type { TicketListScope } from "./ticket-keys";

export const createTicketsRepository = (db: Db) => {
  const T = db.tableName;
  return {
    ...createTicketListReads(db),
    ...createTicketWrites(db),
    ...createContactCardFollow(db),
    async findById(companyId: number, id: number): Promise<TicketRecord | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id), ConsistentRead: true }));
      return out.Item ? toTicket(out.Item) : null;
    },
    /**
     * The ticket and a contact in one strongly consistent BatchGetItem: one round trip and one call instead of two
     * side by side (a receipt's frame needs both, docs/adr/0045).
     */
    async findWithContact(companyId: number, id: number, contactId: number): Promise<{ ticket: TicketRecord | null; contact: Contact | null }> {
      const items = await batchGetAll(db, [key(companyId, id), contactItemKey(companyId, contactId)], { consistent: true });
      const ticketSk = key(companyId, id).sk;
      const contactSk = contactItemKey(companyId, contactId).sk;
      const ticket = items.find((i) => i.sk === ticketSk);
      const contact = items.find((i) => i.sk === contactSk);
      return { ticket: ticket ? toTicket(ticket) : null, contact: contact ? contactFromItem(contact) : null };
    },
    /** `fields`: only these fields of each ticket (search reads a few of many). */
    async findByIds(companyId: number, ids: number[], fields?: readonly string[]): Promise<TicketRecord[]> {
      return (await batchGetAll(db, [...new Set(ids)].map((id) => key(companyId, id)), fields ? { attributes: fields } : {})).map(toTicket);
    },
    async findIdByUuid(companyId: number, uuid: string): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: uuidKey(companyId, uuid) }));
      return out.Item ? Number(out.Item.ticketId) : null;
    },
    /** The ticket whose attention cycle has this protocol number. */
    async findIdByProtocol(companyId: number, protocol: string): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: protocolKey(companyId, protocol) }));
      return out.Item ? Number(out.Item.ticketId) : null;
    },
    /** The pending/open ticket of a contact on a connection, through the lock item (strongly consistent). */
    async findOpenId(companyId: number, contactId: number, whatsappId: number | null): Promise<number | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: openLockKey(companyId, contactId, whatsappId), ConsistentRead: true }));
      return out.Item ? Number(out.Item.ticketId) : null;
    },
    /** Newest tickets of a contact (search by contact, conversation history). */
    async listIdsByContact(companyId: number, contactId: number, limit: number): Promise<number[]> {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: T,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": contactTicketKey(companyId, contactId, 0).pk },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return (out.Items ?? []).map((i) => Number(i.ticketId));
    },

    async findCycle(companyId: number, ticketId: number): Promise<TicketCycle | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: cycleKey(companyId, ticketId) }));
      return out.Item ? toCycle(out.Item) : null;
    },
    /** Attention cycles queued in [fromIso, toIso): one query per month bucket of the range. */
    async listCyclesBetween(companyId: number, fromIso: string, toIso: string): Promise<TicketCycle[]> {
      const months: string[] = [];
      const d = new Date(`${fromIso.slice(0, 7)}-01T00:00:00.000Z`);
      while (d.toISOString().slice(0, 7) <= toIso.slice(0, 7)) {
        months.push(d.toISOString());
        d.setUTCMonth(d.getUTCMonth() + 1);
      }
      const cycles: TicketCycle[] = [];
      for (const m of months) {
        let start: Record<string, unknown> | undefined;
        do {
          const out = await db.doc.send(
            new QueryCommand({
              TableName: T,
              IndexName: "gsi1",
              KeyConditionExpression: "gsi1pk = :pk AND gsi1sk BETWEEN :a AND :b",
              ExpressionAttributeValues: { ":pk": cycleMonthPk(companyId, m), ":a": fromIso, ":b": `${toIso}` },
              ExclusiveStartKey: start,
            }),
          );
          cycles.push(...(out.Items ?? []).map(toCycle));
          start = out.LastEvaluatedKey;
        } while (start);
      }
      return cycles.filter((c) => c.queuedAt >= fromIso && c.queuedAt < toIso);
    },
    async listChanges(companyId: number, ticketId: number): Promise<TicketChange[]> {
      const out = await db.doc.send(
        new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": changeKey(companyId, ticketId, "", "").pk } }),
      );
      return (out.Items ?? []).map(toChange);
    },

    // ---- rating wait: after a close with userRating on, the contact's next 1..3 is a rating ----
    async putRatingWait(companyId: number, contactId: number, whatsappId: number | null, ticketId: number, until: Date): Promise<void> {
      await db.doc.send(
        new PutCommand({
          TableName: T,
          Item: { ...ratingWaitKey(companyId, contactId, whatsappId), entity: "ratingWait", ticketId, until: until.toISOString(), ttl: Math.floor(until.getTime() / 1000) },
        }),
      );
    },
    async findRatingWait(companyId: number, contactId: number, whatsappId: number | null): Promise<{ ticketId: number; until: string } | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: ratingWaitKey(companyId, contactId, whatsappId), ConsistentRead: true }));
      return out.Item ? { ticketId: Number(out.Item.ticketId), until: String(out.Item.until) } : null;
    },
    /** Consumes the wait once (conditional delete): true for the one caller that took it. */
    async takeRatingWait(companyId: number, contactId: number, whatsappId: number | null): Promise<boolean> {
      try {
        await db.doc.send(new DeleteCommand({ TableName: T, Key: ratingWaitKey(companyId, contactId, whatsappId), ConditionExpression: "attribute_exists(pk)" }));
        return true;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return false;
        throw e;
      }
    },
  };
};
export type TicketsRepository = ReturnType<typeof createTicketsRepository>;
