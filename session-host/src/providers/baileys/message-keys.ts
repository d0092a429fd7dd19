import type { WAMessage, WAMessageKey } from "baileys";
import type { MessageStore, StoredKey } from "./message-store";
import type { Baileys } from "./support";

/**
 * Stored messages as Baileys wants them: the full message for `getMessage` and quotes, the key as WhatsApp
 * addressed it for edits, deletes, reactions and reads, and `remember` for every message seen or sent.
 */
export const createMessageKeys = (messages: MessageStore, loadBaileys: () => Promise<Baileys>) => {
  const keyFrom = (id: string, k: StoredKey): WAMessageKey => ({
    remoteJid: k.remoteJid,
    id,
    fromMe: k.fromMe,
    ...(k.participant ? { participant: k.participant } : {}),
    ...(k.remoteJidAlt ? { remoteJidAlt: k.remoteJidAlt } : {}),
    ...(k.participantAlt ? { participantAlt: k.participantAlt } : {}),
  });
  return {
    async storedMessage(id: string): Promise<WAMessage | undefined> {
      const m = await messages.get(id);
      if (!m) return undefined;
      const { proto } = await loadBaileys();
      return { key: keyFrom(id, m), message: proto.Message.decode(m.content) };
    },
    /**
     * The key of a message as WhatsApp addressed it: the stored remoteJid (LID or number, whichever the chat
     * used) and participant; the ticket's chat only when the message is unknown here.
     */
    async keyOf(chatJid: string, id: string, fromMe?: boolean): Promise<WAMessageKey> {
      const stored = await messages.get(id);
      if (stored) return keyFrom(id, stored);
      return { remoteJid: chatJid, id, fromMe: fromMe ?? true };
    },
    /** the key as WhatsApp addressed the message, only when it is kept here */
    async storedKey(id: string): Promise<WAMessageKey | undefined> {
      const stored = await messages.get(id);
      return stored ? keyFrom(id, stored) : undefined;
    },
    /**
     * The keys a read receipt names: each message's own (a LID chat stays a LID chat even when the ticket
     * holds the number); a message not kept here goes to the chat its kept neighbours name (the LID chat
     * when the chat is a LID chat), else to the ticket's chat.
     */
    async readKeys(chatJid: string, ids: string[]): Promise<WAMessageKey[]> {
      const stored = await Promise.all(ids.map(async (id) => [id, await messages.get(id)] as const));
      const known = stored.find(([, k]) => k && !k.remoteJid.endsWith("@g.us") && k.remoteJid.endsWith("@lid"))?.[1];
      const chat = chatJid.endsWith("@g.us") ? chatJid : (known?.remoteJid ?? chatJid);
      return stored.map(([id, k]) => (k ? { ...keyFrom(id, k), fromMe: false } : { remoteJid: chat, id, fromMe: false }));
    },
    async remember(msg: WAMessage | undefined) {
      if (!msg?.key.id || !msg.message || !msg.key.remoteJid) return;
      const { proto } = await loadBaileys();
      const k = msg.key;
      await messages.put(
        msg.key.id,
        { remoteJid: k.remoteJid!, fromMe: Boolean(k.fromMe), participant: k.participant ?? undefined, remoteJidAlt: k.remoteJidAlt ?? undefined, participantAlt: k.participantAlt ?? undefined },
        proto.Message.encode(msg.message).finish(),
      );
    },
  };
};
export type MessageKeys = ReturnType<typeof createMessageKeys>;
