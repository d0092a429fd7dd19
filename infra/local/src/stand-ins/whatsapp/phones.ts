import type { ProviderMessage } from "@atende/session-host/providers/provider.port";
import { connKey, digits, newId, nowSeconds, type ConnectionRef, type NetworkState } from "./network-state";
import { SimulatorError, type ChatEntry, type NetworkMessage } from "./network-types";
import { sampleMedia, type MessageType } from "./sample-media";

export type CustomerMessageInput = {
  type: string;
  body?: string;
  /** base64 bytes of an attachment; a sample file is used when absent */
  mediaBase64?: string;
  mimetype?: string;
  filename?: string;
  quotedId?: string;
  latitude?: number;
  longitude?: number;
  /** contact card: name and number of the shared contact */
  contactName?: string;
  contactNumber?: string;
  /** reaction: the reacted message and the emoji ("" removes) */
  targetId?: string;
  emoji?: string;
  isForwarded?: boolean;
  isVideo?: boolean;
};

type Ref = { companyId: number; whatsappId: number };

/**
 * The phones' side of the network: the linked phone (scans, enters pairing codes, unlinks, keeps an address
 * book) and the customers' phones (send every message type, acknowledge, see their chats and attachments).
 */
export const createPhones = (s: NetworkState) => {
  const phones = {
    /**
     * The phone scans the QR: pairing, then connected with the phone's number. Resolves once connected.
     * A passkey-walled phone (`passkey`, WhatsApp since July 2026 on some numbers) stops at WhatsApp's
     * `passkey_prologue_request`: the connection is not linked and the business is told PASSKEY_REQUIRED.
     */
    async scan(ref: Ref | { qr: string }, phoneNumber?: string, opts: { passkey?: boolean } = {}) {
      const c = "qr" in ref ? [...s.conns.values()].find((x) => x.qr === ref.qr) : s.conns.get(connKey(ref.companyId, ref.whatsappId));
      if (!c || c.status !== "qrcode" || !c.client) throw new SimulatorError(409, "this connection is not showing a QR code");
      const client = c.client;
      s.stopQr(c);
      c.status = "PAIRING";
      client.onPairing();
      s.changed();
      await new Promise((r) => s.later(s.pairingDelayMs, () => r(undefined)));
      if (c.client !== client || c.status !== "PAIRING") throw new SimulatorError(409, "pairing interrupted");
      if (opts.passkey) {
        c.status = "PASSKEY_REQUIRED";
        client.onPasskeyRequired();
        s.changed();
        return { number: null, passkeyRequired: true };
      }
      const number = digits(phoneNumber ?? "") || `5511${String(900_000_000 + Math.floor(Math.random() * 99_999_999))}`;
      c.number = number;
      await s.opts.pairing.save(c.companyId, c.whatsappId, number);
      c.status = "CONNECTED";
      client.onConnected(number);
      s.kick(c);
      s.changed();
      return { number };
    },

    /**
     * The phone links by code ("Conectar com número de telefone"): the phone whose number the code was issued for
     * enters it; then pairing and connected, as after a scan.
     */
    async enterPairingCode(ref: Ref, code: string, phoneNumber: string) {
      const c = s.conns.get(connKey(ref.companyId, ref.whatsappId));
      const typed = code.replace(/[\s-]/g, "").toUpperCase();
      if (!c || c.status !== "qrcode" || !c.client || !c.pairingCode) throw new SimulatorError(409, "this connection is not waiting for a pairing code");
      if (c.pairingCode.code !== typed || c.pairingCode.phoneNumber !== digits(phoneNumber)) throw new SimulatorError(400, "wrong code for this phone number");
      return phones.scan(ref, c.pairingCode.phoneNumber);
    },

    /** The phone unlinks the device ("Desconectar" in linked devices): the session is logged out. */
    async unlink(ref: Ref) {
      const c = s.conns.get(connKey(ref.companyId, ref.whatsappId));
      if (!c) throw new SimulatorError(404, "unknown connection");
      await s.unlink(c);
    },

    /** Sets the linked phone's address book (replacing it): what a contacts import of that connection finds. */
    setPhoneBook(ref: Ref, entries: { number: string; name?: string }[]) {
      const c = s.conn(ref.companyId, ref.whatsappId);
      c.phoneBook = new Map();
      for (const e of entries) {
        const n = digits(e.number);
        if (n.length < 8 || n.length > 15) throw new SimulatorError(400, "a contact number has 8 to 15 digits");
        c.phoneBook.set(n, e.name?.trim() ?? "");
      }
      s.changed();
      return [...c.phoneBook].map(([number, name]) => ({ number, name }));
    },

    upsertCustomer(number: string, name?: string, autoAck?: boolean) {
      const customer = s.ensureCustomer(number, name);
      if (autoAck !== undefined) customer.autoAck = autoAck;
      s.changed();
      return customer;
    },

    /**
     * A customer sends something to a connection; it reaches the business once a client acknowledges it. While
     * no session host is attached (the host died, restarts, or hands over), it waits here and is delivered in
     * order on the next attach, as WhatsApp's offline queue does.
     */
    async customerSend(number: string, ref: ConnectionRef, input: CustomerMessageInput) {
      const customer = s.ensureCustomer(number);
      const c = s.resolveConn(ref);
      if (!c.number) throw new SimulatorError(409, "the connection is not paired: scan its QR code first");
      const chatJid = `${customer.number}@s.whatsapp.net`;
      const chat = s.chatOf(c, customer.number);
      const id = newId();
      const sender = { jid: chatJid, number: customer.number, pushName: customer.name };

      if (input.type === "call") {
        chat.push({ id, fromCustomer: true, type: "call", body: input.isVideo ? "video" : "voice", ack: 0, reactions: [], timestamp: nowSeconds() });
        s.enqueue(c, { kind: "call", call: { callId: id, from: chatJid, fromNumber: customer.number, isVideo: Boolean(input.isVideo) } });
        s.changed();
        return { id };
      }
      if (input.type === "edit" || input.type === "delete") {
        const target = chat.find((e) => e.id === input.targetId && e.fromCustomer);
        if (!target) throw new SimulatorError(404, "the customer has no such message");
        if (input.type === "edit") {
          target.body = input.body ?? "";
          target.edited = true;
        } else target.isDeleted = true;
        s.enqueue(c, {
          kind: "update",
          update: input.type === "edit" ? { messageId: target.id, chatJid, body: target.body } : { messageId: target.id, chatJid, isDeleted: true },
        });
        s.changed();
        return { id: target.id };
      }
      if (input.type === "typing" || input.type === "recording" || input.type === "paused") {
        s.enqueue(c, { kind: "presence", update: { chatJid, presence: input.type === "typing" ? "composing" : input.type } });
        return { id };
      }

      const type = normaliseType(input.type);
      let body = input.body ?? "";
      let media: NetworkMessage["media"];
      let entryMedia: ChatEntry["media"];
      let reaction: ProviderMessage["reaction"];
      if (type === "image" || type === "audio" || type === "video" || type === "document" || type === "sticker") {
        const sample = sampleMedia(type as MessageType, body);
        const bytes = input.mediaBase64 ? Buffer.from(input.mediaBase64, "base64") : sample.bytes;
        const mimetype = input.mimetype ?? sample.mimetype;
        const filename = input.filename ?? sample.filename;
        const mediaId = s.keepMedia(customer.number, bytes, mimetype);
        media = { mimetype, filename, mediaId };
        entryMedia = { id: mediaId, mimetype, filename };
        if (type === "document" && !body) body = filename;
      } else if (type === "locationMessage") {
        const lat = input.latitude ?? -23.5505;
        const lng = input.longitude ?? -46.6333;
        body = `|https://maps.google.com/maps?q=${lat}%2C${lng}&z=17&hl=pt-BR|${input.body ?? ""}`;
      } else if (type === "contactMessage") {
        const name = input.contactName ?? "Contato";
        const n = digits(input.contactNumber ?? "5511999999999");
        body = input.body ?? `BEGIN:VCARD\nVERSION:3.0\nN:;${name};;;\nFN:${name}\nTEL;type=CELL;waid=${n}:+${n}\nEND:VCARD`;
      } else if (type === "reactionMessage") {
        if (!input.targetId) throw new SimulatorError(400, "a reaction needs targetId");
        const target = chat.find((e) => e.id === input.targetId);
        if (!target) throw new SimulatorError(404, "no such message in this chat");
        target.reactions = target.reactions.filter((r) => r.by !== "customer");
        if (input.emoji) target.reactions.push({ by: "customer", emoji: input.emoji });
        reaction = { targetId: input.targetId, emoji: input.emoji ?? "" };
        body = input.emoji ?? "";
      }

      const message: NetworkMessage = {
        id,
        chatJid,
        fromMe: false,
        isGroup: false,
        sender,
        type,
        body,
        media,
        quotedId: input.quotedId,
        isForwarded: Boolean(input.isForwarded),
        timestamp: nowSeconds(),
        reaction,
      };
      if (type !== "reactionMessage")
        chat.push({ id, fromCustomer: true, type, body, ack: 0, media: entryMedia, quotedId: input.quotedId, isForwarded: input.isForwarded, reactions: [], timestamp: message.timestamp });
      s.enqueue(c, { kind: "message", message });
      s.changed();
      return { id };
    },

    /** The customer's phone reports delivered (3) or read (4) for the business's messages (all, or the ids given). */
    customerAck(number: string, ref: ConnectionRef, ack: 3 | 4, messageIds?: string[]) {
      const customer = s.ensureCustomer(number);
      const c = s.resolveConn(ref);
      const chat = s.chatOf(c, customer.number);
      let count = 0;
      for (const e of chat) {
        if (e.fromCustomer || (messageIds && !messageIds.includes(e.id)) || e.ack >= ack) continue;
        if (ack === 4 && e.ack < 3) s.ackFromCustomer(c, customer, e, 3);
        s.ackFromCustomer(c, customer, e, ack);
        count++;
      }
      return { count };
    },

    chat(number: string, ref: ConnectionRef) {
      const customer = s.ensureCustomer(number);
      const c = s.resolveConn(ref);
      const chat = s.chatOf(c, customer.number);
      return { customer, presence: s.presenceOf.get(chat), messages: chat };
    },

    /** an attachment as the phone `phone` has it: undefined for an id it never sent nor received */
    phoneMedia(phone: string, id: string) {
      const m = s.media.get(id);
      return m && m.phone === digits(phone) ? m : undefined;
    },

    customers: () => [...s.customers.values()],
  };
  return phones;
};

const TYPE_ALIASES: Record<string, ProviderMessage["type"]> = {
  text: "chat",
  chat: "chat",
  image: "image",
  audio: "audio",
  ptt: "audio",
  video: "video",
  document: "document",
  sticker: "sticker",
  location: "locationMessage",
  locationMessage: "locationMessage",
  vcard: "contactMessage",
  contact: "contactMessage",
  contactMessage: "contactMessage",
  reaction: "reactionMessage",
  reactionMessage: "reactionMessage",
};

const normaliseType = (type: string): ProviderMessage["type"] => {
  const t = TYPE_ALIASES[type];
  if (!t) throw new SimulatorError(400, `unknown message type ${type}`);
  return t;
};
