import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Message } from "@atende/shared/domain/messages/message";
import type { Db } from "../../../platform/db/client";
import { companyPk } from "../../../platform/db/keys";
import { mergedIndexPage } from "../../../platform/db/merged-query";
import { mapItem } from "../../../platform/db/map-item";
import { setExpression } from "../../../platform/db/update";
import type { TxItem } from "../../../platform/db/transact";
import { batchGetAll } from "../../../platform/db/batch-get";
import { messageOrderSuffix } from "@atende/shared/domain/messages/message-order";

/**
 * A message is its own partition, keyed by the WhatsApp message id: the dedupe is the conditional put of the
 * message itself. gsi1 lists a ticket's messages, gsi2 a contact's conversation across tickets, by time, then the
 * inbound sequence within a second (`<createdAt>#<seq>#<id>`; `<createdAt>#<id>` without one: docs/adr/0066).
 */
const key = (companyId: number, id: string) => ({ pk: `${companyPk(companyId)}#MSG#${id}`, sk: "MSG" });
const conversationPk = (companyId: number, contactId: number) => `${companyPk(companyId)}#CMSG#${contactId}`;
const ticketPk = (companyId: number, ticketId: number) => `${companyPk(companyId)}#TMSG#${ticketId}`;
const toMessage = mapItem<Message>({
  id: true,
  companyId: true,
  ticketId: true,
  contactId: true,
  body: true,
  fromMe: true,
  mediaType: true,
  mediaUrl: true,
  mediaKey: true,
  mediaMimetype: true,
  mediaName: true,
  mediaExpiredAt: true,
  quotedMsgId: true,
  isDeleted: true,
  isEdited: true,
  isForwarded: true,
  ack: true,
  error: true,
  reactions: true,
  participant: true,
  transcript: true,
  transcriptCut: true,
  isRepeat: true,
  internal: true,
  replyId: true,
  queueId: true,
  userId: true,
  createdAt: true,
  seq: true,
  updatedAt: true,
});

const isConditionFailure = (e: unknown) => (e as Error).name === "ConditionalCheckFailedException";

export const createMessagesRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async findById(companyId: number, id: string): Promise<Message | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id), ConsistentRead: true }));
      return out.Item && out.Item.entity === "message" ? toMessage(out.Item) : null;
    },
    /**
     * True when anything (a message or a reserved echo id) already holds this WhatsApp id. The whole item is asked
     * (a projection costs the same read units, and a plain GetItem can join a coalesced BatchGetItem: docs/adr/0049);
     * the usual answer is "none".
     */
    async exists(companyId: number, id: string): Promise<boolean> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id) }));
      return Boolean(out.Item);
    },
    /** `fields`: only these fields of each message (search reads a few of many). */
    async findByIds(companyId: number, ids: string[], fields?: readonly (keyof Message)[]): Promise<Message[]> {
      const items = await batchGetAll(db, [...new Set(ids)].map((id) => key(companyId, id)), fields ? { attributes: [...fields, "entity"] } : {});
      return items.filter((i) => i.entity === "message").map(toMessage);
    },
    /** The message as a transaction item that fails if the id was already stored (dedupe). */
    createItem(m: Message): TxItem {
      return {
        Put: {
          TableName: T,
          Item: {
            ...key(m.companyId, m.id),
            gsi1pk: ticketPk(m.companyId, m.ticketId),
            gsi1sk: `${m.createdAt}#${messageOrderSuffix(m)}`,
            gsi2pk: conversationPk(m.companyId, m.contactId),
            gsi2sk: `${m.createdAt}#${messageOrderSuffix(m)}`,
            // media by day of creation: the retention sweep's index (docs/adr/0030; same key as lgpd/media-retention.repository)
            ...(m.mediaKey ? { gsi3pk: `${companyPk(m.companyId)}#MEDIADAY#${m.createdAt.slice(0, 10)}`, gsi3sk: `${m.createdAt}#${m.id}` } : {}),
            entity: "message",
            ...m,
          },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      };
    },
    /** Holds an id we sent outside any ticket (a call notice), so its echo is recognised and ignored. */
    async reserveEchoId(companyId: number, id: string, now: Date): Promise<void> {
      await db.doc.send(
        new PutCommand({ TableName: T, Item: { ...key(companyId, id), entity: "echoReservation", ttl: Math.floor(now.getTime() / 1000) + 7 * 86_400 } }),
      );
    },
    /** Acks only move forward: the write is conditioned on the stored ack being lower. Null when it did not move. */
    async advanceAck(companyId: number, id: string, ack: number, now: Date, clearError = false): Promise<Message | null> {
      try {
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, id),
            UpdateExpression: clearError ? "SET ack = :a, updatedAt = :u, #e = :null" : "SET ack = :a, updatedAt = :u",
            ConditionExpression: "entity = :m AND ack < :a",
            ...(clearError ? { ExpressionAttributeNames: { "#e": "error" } } : {}),
            ExpressionAttributeValues: { ":a": ack, ":u": now.toISOString(), ":m": "message", ...(clearError ? { ":null": null } : {}) },
            ReturnValues: "ALL_NEW",
          }),
        );
        return out.Attributes ? toMessage(out.Attributes) : null;
      } catch (e) {
        if (isConditionFailure(e)) return null;
        throw e;
      }
    },
    async update(companyId: number, id: string, fields: Partial<Message>): Promise<Message | null> {
      try {
        const expr = setExpression(fields);
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(companyId, id),
            ...expr,
            ConditionExpression: "#ent = :m",
            ExpressionAttributeNames: { ...expr.ExpressionAttributeNames, "#ent": "entity" },
            ExpressionAttributeValues: { ...expr.ExpressionAttributeValues, ":m": "message" },
            ReturnValues: "ALL_NEW",
          }),
        );
        return out.Attributes ? toMessage(out.Attributes) : null;
      } catch (e) {
        if (isConditionFailure(e)) return null;
        throw e;
      }
    },
    /** One page of a contact's conversation, newest first. */
    async pageByContact(companyId: number, contactId: number, limit: number, cursor?: string) {
      const out = await mergedIndexPage(db, [{ index: "gsi2", pk: conversationPk(companyId, contactId) }], { limit, cursor });
      return { items: out.items.map(toMessage), next: out.next };
    },
  };
};
export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
