import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db";
import type { SessionIdentity } from "../provider.port";

/**
 * Recent messages (content as Baileys' protobuf bytes) kept for `getMessage`: WhatsApp asks the sender to
 * re-encrypt a message a recipient device could not decrypt; without it, retries fail. Items expire after 7 days.
 */
const TTL_SECONDS = 7 * 86_400;
const pkOf = (id: SessionIdentity) => `CO#${id.companyId}#WAMSG#${id.whatsappId}`;

export const createMessageStore = (db: Db, identity: SessionIdentity) => ({
  async put(messageId: string, remoteJid: string, fromMe: boolean, content: Uint8Array) {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { pk: pkOf(identity), sk: messageId, remoteJid, fromMe, content: Buffer.from(content).toString("base64"), ttl: Math.floor(Date.now() / 1000) + TTL_SECONDS },
      }),
    );
  },
  async get(messageId: string): Promise<{ remoteJid: string; fromMe: boolean; content: Buffer } | undefined> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: { pk: pkOf(identity), sk: messageId } }));
    if (!out.Item) return undefined;
    return { remoteJid: out.Item.remoteJid as string, fromMe: Boolean(out.Item.fromMe), content: Buffer.from(out.Item.content as string, "base64") };
  },
});
export type MessageStore = ReturnType<typeof createMessageStore>;
