import { randomBytes } from "node:crypto";
import type { SessionIdentity } from "@atende/session-host/providers/provider.port";
import { connKey, digits, nowSeconds, type Conn, type NetworkState } from "./network-state";
import { BusinessError, type ChatEntry, type SimulatorClient } from "./network-types";

/** A message the business sends, as it arrives over the wire: the attachment's bytes uploaded with it. */
export type NetworkOutgoing = {
  messageId: string;
  chatJid: string;
  body: string;
  media?: { kind: string; key: string; mimetype: string; filename?: string; bytes: Buffer };
  quotedId?: string;
  isForwarded?: boolean;
};

const exists = (n: string) => n.length >= 10 && n.length <= 13 && !n.endsWith("00000");

/**
 * The business side of the network: a session host's session attaches (over the wire, ./wire-server.ts) and
 * sends, edits, reads ... as a linked device does on WhatsApp.
 */
export const attachBusiness = (s: NetworkState, identity: SessionIdentity, client: SimulatorClient) => {
  const c: Conn = s.conn(identity.companyId, identity.whatsappId);
  // A newer connection replaces an older one (a host that took over from a dead or paused one).
  const previous = c.client;
  c.client = client;
  if (previous && previous !== client) previous.onReplaced();
  if (c.number) {
    s.stopQr(c);
    c.status = "CONNECTED";
    client.onConnected(c.number);
    s.kick(c);
  } else s.showQr(c);
  s.changed();

  const connected = () => {
    if (c.client !== client) throw new BusinessError("ERR_WAPP_NOT_INITIALIZED", "this session was replaced or closed");
    if (c.status !== "CONNECTED") throw new BusinessError("ERR_WAPP_NOT_INITIALIZED", `connection is ${c.status}`);
  };
  const entry = (chatJid: string) => {
    const customer = s.ensureCustomer(digits(chatJid));
    return { customer, chat: s.chatOf(c, customer.number) };
  };

  return {
    detach() {
      if (c.client !== client) return;
      c.client = undefined;
      s.stopQr(c);
      if (c.status !== "DISCONNECTED") c.status = "offline";
      s.changed();
    },
    isConnected: () => c.client === client && c.status === "CONNECTED",
    async logout() {
      if (c.client !== client) return;
      await s.unlink(c);
    },
    /** WhatsApp's "link with phone number": an 8-character code for that number while a QR is shown */
    async requestPairingCode(phoneNumber: string) {
      if (c.client !== client || c.status !== "qrcode") throw new BusinessError("ERR_WAPP_NOT_INITIALIZED");
      // WhatsApp's codes: 8 characters of Crockford's base32 without 0/O/I/U
      const alphabet = "123456789ABCDEFGHJKLMNPQRSTVWXYZ";
      const code = [...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join("");
      c.pairingCode = { code, phoneNumber: digits(phoneNumber) };
      client.onPairingCode(code);
      s.changed();
      return code;
    },
    async newQr() {
      if (c.client !== client) throw new BusinessError("ERR_WAPP_NOT_INITIALIZED");
      if (c.number) await s.unlink(c);
      c.client = client;
      s.showQr(c);
    },
    async send(m: NetworkOutgoing) {
      connected();
      const { customer, chat } = entry(m.chatJid);
      // WhatsApp recipients drop a message id they already have: a retried send never shows twice.
      if (chat.some((e) => e.id === m.messageId)) return { messageId: m.messageId };
      const media = m.media
        ? { id: s.keepMedia(customer.number, m.media.bytes, m.media.mimetype), key: m.media.key, mimetype: m.media.mimetype, filename: m.media.filename }
        : undefined;
      const line: ChatEntry = {
        id: m.messageId,
        fromCustomer: false,
        type: m.media ? m.media.kind : "chat",
        body: m.body,
        ack: 2,
        media,
        quotedId: m.quotedId,
        isForwarded: m.isForwarded,
        reactions: [],
        timestamp: nowSeconds(),
      };
      chat.push(line);
      if (customer.autoAck) {
        s.later(s.ackDelayMs, () => s.ackFromCustomer(c, customer, line, 3));
        s.later(s.ackDelayMs * 2, () => s.ackFromCustomer(c, customer, line, 4));
      }
      s.changed();
      return { messageId: m.messageId };
    },
    async edit(chatJid: string, targetId: string, body: string) {
      connected();
      const line = entry(chatJid).chat.find((e) => e.id === targetId && !e.fromCustomer);
      if (!line) throw new BusinessError("ERR_SENDING_WAPP_MSG", "message not found");
      line.body = body;
      line.edited = true;
      s.changed();
    },
    async delete(chatJid: string, targetId: string) {
      connected();
      const line = entry(chatJid).chat.find((e) => e.id === targetId && !e.fromCustomer);
      if (!line) throw new BusinessError("ERR_DELETE_WAPP_MSG", "message not found");
      line.isDeleted = true;
      s.changed();
    },
    async react(chatJid: string, targetId: string, emoji: string) {
      connected();
      const line = entry(chatJid).chat.find((e) => e.id === targetId);
      if (!line) throw new BusinessError("ERR_SENDING_WAPP_MSG", "message not found");
      line.reactions = line.reactions.filter((r) => r.by !== "business");
      if (emoji) line.reactions.push({ by: "business", emoji });
      s.changed();
    },
    async markRead(chatJid: string, ids: string[]) {
      connected();
      for (const e of entry(chatJid).chat) if (e.fromCustomer && ids.includes(e.id)) e.ack = 4;
      s.changed();
    },
    async presence(chatJid: string, presence: string) {
      connected();
      const { chat } = entry(chatJid);
      s.presenceOf.set(chat, presence === "paused" ? undefined : presence);
      s.changed();
    },
    async checkNumber(number: string) {
      connected();
      const n = digits(number);
      // Simulated rule: 10 to 13 digits exist on WhatsApp, except numbers ending in 00000.
      return exists(n) ? { exists: true, jid: `${n}@s.whatsapp.net` } : { exists: false };
    },
    /** The phone's contacts: its address book, and every customer who has a chat with it (named as they are). */
    async listContacts() {
      connected();
      const book = new Map(c.phoneBook);
      const prefix = `${connKey(c.companyId, c.whatsappId)}|`;
      for (const key of s.chats.keys()) {
        if (!key.startsWith(prefix)) continue;
        const number = key.slice(prefix.length);
        if (!book.has(number)) book.set(number, s.customers.get(number)?.name ?? "");
      }
      return [...book].map(([number, name]) => ({ jid: `${number}@s.whatsapp.net`, number, ...(name ? { name } : {}) }));
    },
    /** several numbers in one query, as WhatsApp's usync allows */
    async checkNumbers(numbers: string[]) {
      connected();
      return numbers.map((number) => {
        const n = digits(number);
        return exists(n) ? { number, exists: true, jid: `${n}@s.whatsapp.net` } : { number, exists: false };
      });
    },
    async rejectCall(callId: string, from: string) {
      connected();
      const line = entry(from).chat.find((e) => e.id === callId);
      if (line) line.body = "rejected";
      s.changed();
    },
  };
};
export type BusinessHandle = ReturnType<typeof attachBusiness>;
