import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db";
import type { SessionIdentity } from "../provider.port";

/**
 * Recent messages (content as Baileys' protobuf bytes, and the key as WhatsApp addressed it) kept for
 * `getMessage` (WhatsApp asks the sender to re-encrypt a message a recipient device could not decrypt) and to
 * rebuild the exact key of a message we quote, react to, edit, delete or mark read: its remoteJid (LID or
 * number, as it came), and in groups the participant. Items expire after 7 days.
 */
const TTL_SECONDS = 7 * 86_400;
const pkOf = (id: SessionIdentity) => `CO#${id.companyId}#WAMSG#${id.whatsappId}`;

export type StoredKey = { remoteJid: string; fromMe: boolean; participant?: string; remoteJidAlt?: string; participantAlt?: string };
export type StoredMessage = StoredKey & { content: Buffer };

export type MessageStore = {
  put(messageId: string, key: StoredKey, content: Uint8Array): Promise<void>;
  get(messageId: string): Promise<StoredMessage | undefined>;
};

export const createMessageStore = (db: Db, identity: SessionIdentity): MessageStore => ({
  async put(messageId, key, content) {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { pk: pkOf(identity), sk: messageId, ...key, content: Buffer.from(content).toString("base64"), ttl: Math.floor(Date.now() / 1000) + TTL_SECONDS },
      }),
    );
  },
  async get(messageId) {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: { pk: pkOf(identity), sk: messageId } }));
    const i = out.Item;
    if (!i) return undefined;
    const opt = (v: unknown) => (typeof v === "string" && v ? v : undefined);
    return {
      remoteJid: i.remoteJid as string,
      fromMe: Boolean(i.fromMe),
      participant: opt(i.participant),
      remoteJidAlt: opt(i.remoteJidAlt),
      participantAlt: opt(i.participantAlt),
      content: Buffer.from(i.content as string, "base64"),
    };
  },
});

/** In memory (tests): the same contract as the table store. */
export const createMemoryMessageStore = (): MessageStore => {
  const items = new Map<string, StoredMessage>();
  return {
    async put(messageId, key, content) {
      items.set(messageId, { ...key, content: Buffer.from(content) });
    },
    async get(messageId) {
      return items.get(messageId);
    },
  };
};
