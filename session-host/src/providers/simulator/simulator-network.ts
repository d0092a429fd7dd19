import { randomBytes } from "node:crypto";
import type { MessageType } from "./simulator-media";
import { sampleMedia } from "./simulator-media";
import { ProviderError, type OutgoingMessage, type ProviderMessage, type SessionIdentity } from "../provider.port";
import type { ChatEntry, Customer, Delivery, PairingStore, SimConnectionStatus, SimulatorClient } from "./simulator-types";

/**
 * The simulated phone network: a stand-in for WhatsApp's servers and its users' phones.
 * Business clients (the simulator provider's sessions, on whichever host holds the lease) attach to it;
 * customers (played by a person on the simulator page or by tests through its HTTP API) send and receive.
 * Like WhatsApp, it keeps what it has not yet delivered to the business and delivers it, in order, once a
 * client is attached again: a host that dies before acknowledging loses nothing.
 */

type Conn = {
  companyId: number;
  whatsappId: number;
  status: SimConnectionStatus;
  number?: string;
  qr?: string;
  qrTimer?: NodeJS.Timeout;
  /** pairing-code login: the code issued and the number it was issued for (the phone enters it) */
  pairingCode?: { code: string; phoneNumber: string };
  client?: SimulatorClient;
  /** undelivered to the business, oldest first */
  pending: Delivery[];
  /** the linked phone's address book: number -> the name saved on the phone */
  phoneBook: Map<string, string>;
};

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

export type ConnectionRef = { companyId: number; whatsappId: number } | { to: string };

/** how many undelivered events the network hands a client at once */
const DELIVERY_WINDOW = 10;
const connKey = (companyId: number, whatsappId: number) => `${companyId}:${whatsappId}`;
const digits = (jidOrNumber: string) => jidOrNumber.split("@")[0]?.split(":")[0]?.replace(/\D/g, "") ?? "";
const newId = () => `SIM${randomBytes(10).toString("hex").toUpperCase()}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export class SimulatorError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export type SimulatorNetwork = ReturnType<typeof createSimulatorNetwork>;

export const createSimulatorNetwork = (opts: { pairing: PairingStore; qrRefreshMs?: number; ackDelayMs?: number; pairingDelayMs?: number }) => {
  const qrRefreshMs = opts.qrRefreshMs ?? 30_000;
  const ackDelayMs = opts.ackDelayMs ?? 800;
  const pairingDelayMs = opts.pairingDelayMs ?? 300;
  const conns = new Map<string, Conn>();
  const customers = new Map<string, Customer>();
  /** chats by `${connKey}|${customerNumber}` */
  const chats = new Map<string, ChatEntry[]>();
  /** attachments customers sent, kept so the page can show them */
  const customerMedia = new Map<string, { bytes: Buffer; mimetype: string }>();
  const listeners = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();
  const changed = () => listeners.forEach((l) => l());

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const conn = (companyId: number, whatsappId: number): Conn => {
    const key = connKey(companyId, whatsappId);
    let c = conns.get(key);
    if (!c) {
      c = { companyId, whatsappId, status: "offline", pending: [], phoneBook: new Map() };
      conns.set(key, c);
    }
    return c;
  };

  const resolveConn = (ref: ConnectionRef): Conn => {
    if ("to" in ref) {
      const to = digits(ref.to);
      const found = [...conns.values()].find((c) => c.number === to);
      if (!found) throw new SimulatorError(404, `no connection has the number ${to}`);
      return found;
    }
    const found = conns.get(connKey(ref.companyId, ref.whatsappId));
    if (!found) throw new SimulatorError(404, "unknown connection");
    return found;
  };

  const chatOf = (c: Conn, customer: string) => {
    const key = `${connKey(c.companyId, c.whatsappId)}|${customer}`;
    let chat = chats.get(key);
    if (!chat) {
      chat = [];
      chats.set(key, chat);
    }
    return chat;
  };

  const ensureCustomer = (number: string, name?: string): Customer => {
    const n = digits(number);
    if (n.length < 8 || n.length > 15) throw new SimulatorError(400, "a customer number has 8 to 15 digits");
    let customer = customers.get(n);
    if (!customer) {
      customer = { number: n, name: name ?? `Cliente ${n.slice(-4)}`, autoAck: true };
      customers.set(n, customer);
    } else if (name) customer.name = name;
    return customer;
  };

  const stopQr = (c: Conn) => {
    if (c.qrTimer) clearInterval(c.qrTimer);
    c.qrTimer = undefined;
    c.qr = undefined;
    c.pairingCode = undefined;
  };

  const showQr = (c: Conn) => {
    stopQr(c);
    const client = c.client;
    c.status = "qrcode";
    const refresh = () => {
      // A real pairing QR carries a one-time reference and keys; ours carries a one-time random token.
      c.qr = `SIM@${c.companyId},${c.whatsappId},${randomBytes(16).toString("base64url")}`;
      client?.onQr(c.qr);
      changed();
    };
    refresh();
    c.qrTimer = setInterval(refresh, qrRefreshMs);
  };

  /**
   * Delivers pending events to the attached client in order, a window at a time (the client batches them to
   * its queue); each leaves the network's queue once acknowledged. After a failure only the acknowledged prefix
   * leaves; the rest is delivered again (the client's queue drops what it already has, by id).
   */
  const pump = async (c: Conn, client: SimulatorClient): Promise<"idle" | "failed"> => {
    while (c.client === client && c.status === "CONNECTED" && c.pending.length > 0) {
      const window = c.pending.slice(0, DELIVERY_WINDOW);
      const results = await Promise.allSettled(window.map((d) => client.deliver(d)));
      const acked = results.findIndex((r) => r.status === "rejected");
      const done = acked === -1 ? window : window.slice(0, acked);
      for (const d of done) {
        const i = c.pending.indexOf(d);
        if (i >= 0) c.pending.splice(i, 1);
      }
      if (acked !== -1) {
        // The client could not make it durable: keep it, try again shortly (or on the next attach).
        later(500, () => kick(c));
        return "failed";
      }
    }
    return "idle";
  };
  const pumping = new WeakMap<SimulatorClient, Promise<unknown>>();
  const kick = (c: Conn) => {
    const client = c.client;
    if (!client || pumping.get(client)) return;
    const run = pump(c, client).then((outcome) => {
      pumping.delete(client);
      // events enqueued while the last window was out
      if (outcome === "idle" && c.client === client && c.status === "CONNECTED" && c.pending.length > 0) kick(c);
    });
    pumping.set(client, run);
  };

  const enqueue = (c: Conn, d: Delivery) => {
    c.pending.push(d);
    kick(c);
  };

  const connectedClient = (c: Conn, client: SimulatorClient) => {
    if (c.client !== client) throw new ProviderError("ERR_WAPP_NOT_INITIALIZED", "this session was replaced or closed");
    if (c.status !== "CONNECTED") throw new ProviderError("ERR_WAPP_NOT_INITIALIZED", `connection is ${c.status}`);
  };

  const unlink = async (c: Conn) => {
    stopQr(c);
    c.number = undefined;
    c.status = "DISCONNECTED";
    c.pending = [];
    await opts.pairing.remove(c.companyId, c.whatsappId);
    c.client?.onLoggedOut();
    changed();
  };

  const businessEntry = (c: Conn, chatJid: string) => {
    const customer = ensureCustomer(digits(chatJid));
    return { customer, chat: chatOf(c, customer.number) };
  };

  const ackFromCustomer = (c: Conn, customer: Customer, entry: ChatEntry, ack: 3 | 4) => {
    if (entry.fromCustomer || entry.ack >= ack) return;
    entry.ack = ack;
    enqueue(c, { kind: "update", update: { messageId: entry.id, chatJid: `${customer.number}@s.whatsapp.net`, ack } });
    changed();
  };

  const network = {
    /** loads the paired connections (they reconnect without a QR, like a linked phone) */
    async init() {
      for (const p of await opts.pairing.load()) {
        const c = conn(p.companyId, p.whatsappId);
        c.number = p.number;
      }
    },

    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** A business client connects. Paired: connected at once and pending events flow; otherwise a QR is shown. */
    attach(identity: SessionIdentity, client: SimulatorClient) {
      const c = conn(identity.companyId, identity.whatsappId);
      // A newer connection replaces an older one (a host that took over from a dead one).
      c.client = client;
      if (c.number) {
        stopQr(c);
        c.status = "CONNECTED";
        client.onConnected(c.number);
        kick(c);
      } else showQr(c);
      changed();

      return {
        detach() {
          if (c.client !== client) return;
          c.client = undefined;
          stopQr(c);
          if (c.status !== "DISCONNECTED") c.status = "offline";
          changed();
        },
        isConnected: () => c.client === client && c.status === "CONNECTED",
        async logout() {
          if (c.client !== client) return;
          await unlink(c);
        },
        /** WhatsApp's "link with phone number": an 8-character code for that number while a QR is shown */
        async requestPairingCode(phoneNumber: string) {
          if (c.client !== client || c.status !== "qrcode") throw new ProviderError("ERR_WAPP_NOT_INITIALIZED");
          // WhatsApp's codes: 8 characters of Crockford's base32 without 0/O/I/U
          const alphabet = "123456789ABCDEFGHJKLMNPQRSTVWXYZ";
          const code = [...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join("");
          c.pairingCode = { code, phoneNumber: digits(phoneNumber) };
          client.onPairingCode(code);
          changed();
          return code;
        },
        async newQr() {
          if (c.client !== client) throw new ProviderError("ERR_WAPP_NOT_INITIALIZED");
          if (c.number) await unlink(c);
          c.client = client;
          showQr(c);
        },
        async send(m: OutgoingMessage) {
          connectedClient(c, client);
          const { customer, chat } = businessEntry(c, m.chatJid);
          // WhatsApp recipients drop a message id they already have: a retried send never shows twice.
          if (chat.some((e) => e.id === m.messageId)) return { messageId: m.messageId };
          const entry: ChatEntry = {
            id: m.messageId,
            fromCustomer: false,
            type: m.media ? m.media.kind : "chat",
            body: m.body,
            ack: 2,
            media: m.media ? { key: m.media.key, mimetype: m.media.mimetype, filename: m.media.filename } : undefined,
            quotedId: m.quotedId,
            isForwarded: m.isForwarded,
            reactions: [],
            timestamp: nowSeconds(),
          };
          chat.push(entry);
          if (customer.autoAck) {
            later(ackDelayMs, () => ackFromCustomer(c, customer, entry, 3));
            later(ackDelayMs * 2, () => ackFromCustomer(c, customer, entry, 4));
          }
          changed();
          return { messageId: m.messageId };
        },
        async edit(chatJid: string, targetId: string, body: string) {
          connectedClient(c, client);
          const entry = businessEntry(c, chatJid).chat.find((e) => e.id === targetId && !e.fromCustomer);
          if (!entry) throw new ProviderError("ERR_SENDING_WAPP_MSG", "message not found");
          entry.body = body;
          entry.edited = true;
          changed();
        },
        async delete(chatJid: string, targetId: string) {
          connectedClient(c, client);
          const entry = businessEntry(c, chatJid).chat.find((e) => e.id === targetId && !e.fromCustomer);
          if (!entry) throw new ProviderError("ERR_DELETE_WAPP_MSG", "message not found");
          entry.isDeleted = true;
          changed();
        },
        async react(chatJid: string, targetId: string, emoji: string) {
          connectedClient(c, client);
          const entry = businessEntry(c, chatJid).chat.find((e) => e.id === targetId);
          if (!entry) throw new ProviderError("ERR_SENDING_WAPP_MSG", "message not found");
          entry.reactions = entry.reactions.filter((r) => r.by !== "business");
          if (emoji) entry.reactions.push({ by: "business", emoji });
          changed();
        },
        async markRead(chatJid: string, ids: string[]) {
          connectedClient(c, client);
          for (const e of businessEntry(c, chatJid).chat) if (e.fromCustomer && ids.includes(e.id)) e.ack = 4;
          changed();
        },
        async presence(chatJid: string, presence: string) {
          connectedClient(c, client);
          const { chat } = businessEntry(c, chatJid);
          presenceOf.set(chat, presence === "paused" ? undefined : presence);
          changed();
        },
        async checkNumber(number: string) {
          connectedClient(c, client);
          const n = digits(number);
          // Simulated rule: 10 to 13 digits exist on WhatsApp, except numbers ending in 00000.
          const exists = n.length >= 10 && n.length <= 13 && !n.endsWith("00000");
          return exists ? { exists, jid: `${n}@s.whatsapp.net` } : { exists };
        },
        /** The phone's contacts: its address book, and every customer who has a chat with it (named as they are). */
        async listContacts() {
          connectedClient(c, client);
          const book = new Map(c.phoneBook);
          const prefix = `${connKey(c.companyId, c.whatsappId)}|`;
          for (const key of chats.keys()) {
            if (!key.startsWith(prefix)) continue;
            const number = key.slice(prefix.length);
            if (!book.has(number)) book.set(number, customers.get(number)?.name ?? "");
          }
          return [...book].map(([number, name]) => ({ jid: `${number}@s.whatsapp.net`, number, ...(name ? { name } : {}) }));
        },
        /** several numbers in one query, as WhatsApp's usync allows */
        async checkNumbers(numbers: string[]) {
          connectedClient(c, client);
          return numbers.map((number) => {
            const n = digits(number);
            const exists = n.length >= 10 && n.length <= 13 && !n.endsWith("00000");
            return exists ? { number, exists, jid: `${n}@s.whatsapp.net` } : { number, exists };
          });
        },
        async rejectCall(callId: string, from: string) {
          connectedClient(c, client);
          const entry = businessEntry(c, from).chat.find((e) => e.id === callId);
          if (entry) entry.body = "rejected";
          changed();
        },
      };
    },

    // ---- the phone side: scanning, unlinking ----

    /** The phone scans the QR: pairing, then connected with the phone's number. Resolves once connected. */
    async scan(ref: { companyId: number; whatsappId: number } | { qr: string }, phoneNumber?: string) {
      const c = "qr" in ref ? [...conns.values()].find((x) => x.qr === ref.qr) : conns.get(connKey(ref.companyId, ref.whatsappId));
      if (!c || c.status !== "qrcode" || !c.client) throw new SimulatorError(409, "this connection is not showing a QR code");
      const client = c.client;
      stopQr(c);
      c.status = "PAIRING";
      client.onPairing();
      changed();
      await new Promise((r) => later(pairingDelayMs, () => r(undefined)));
      if (c.client !== client || c.status !== "PAIRING") throw new SimulatorError(409, "pairing interrupted");
      const number = digits(phoneNumber ?? "") || `5511${String(900_000_000 + Math.floor(Math.random() * 99_999_999))}`;
      c.number = number;
      await opts.pairing.save(c.companyId, c.whatsappId, number);
      c.status = "CONNECTED";
      client.onConnected(number);
      kick(c);
      changed();
      return { number };
    },

    /**
     * The phone links by code ("Conectar com número de telefone"): the phone whose number the code was issued for
     * enters it; then pairing and connected, as after a scan.
     */
    async enterPairingCode(ref: { companyId: number; whatsappId: number }, code: string, phoneNumber: string) {
      const c = conns.get(connKey(ref.companyId, ref.whatsappId));
      const typed = code.replace(/[\s-]/g, "").toUpperCase();
      if (!c || c.status !== "qrcode" || !c.client || !c.pairingCode) throw new SimulatorError(409, "this connection is not waiting for a pairing code");
      if (c.pairingCode.code !== typed || c.pairingCode.phoneNumber !== digits(phoneNumber)) throw new SimulatorError(400, "wrong code for this phone number");
      return this.scan(ref, c.pairingCode.phoneNumber);
    },

    /** The phone unlinks the device ("Desconectar" in linked devices): the session is logged out. */
    async unlink(ref: { companyId: number; whatsappId: number }) {
      const c = conns.get(connKey(ref.companyId, ref.whatsappId));
      if (!c) throw new SimulatorError(404, "unknown connection");
      await unlink(c);
    },

    /** Sets the linked phone's address book (replacing it): what a contacts import of that connection finds. */
    setPhoneBook(ref: { companyId: number; whatsappId: number }, entries: { number: string; name?: string }[]) {
      const c = conn(ref.companyId, ref.whatsappId);
      c.phoneBook = new Map();
      for (const e of entries) {
        const n = digits(e.number);
        if (n.length < 8 || n.length > 15) throw new SimulatorError(400, "a contact number has 8 to 15 digits");
        c.phoneBook.set(n, e.name?.trim() ?? "");
      }
      changed();
      return [...c.phoneBook].map(([number, name]) => ({ number, name }));
    },

    // ---- customers ----

    upsertCustomer(number: string, name?: string, autoAck?: boolean) {
      const customer = ensureCustomer(number, name);
      if (autoAck !== undefined) customer.autoAck = autoAck;
      changed();
      return customer;
    },

    /** A customer sends something to a connection; it reaches the business once a client acknowledges it. */
    async customerSend(number: string, ref: ConnectionRef, input: CustomerMessageInput) {
      const customer = ensureCustomer(number);
      const c = resolveConn(ref);
      if (!c.number) throw new SimulatorError(409, "the connection is not paired: scan its QR code first");
      const chatJid = `${customer.number}@s.whatsapp.net`;
      const chat = chatOf(c, customer.number);
      const id = newId();
      const sender = { jid: chatJid, number: customer.number, pushName: customer.name };

      if (input.type === "call") {
        chat.push({ id, fromCustomer: true, type: "call", body: input.isVideo ? "video" : "voice", ack: 0, reactions: [], timestamp: nowSeconds() });
        enqueue(c, { kind: "call", call: { callId: id, from: chatJid, fromNumber: customer.number, isVideo: Boolean(input.isVideo) } });
        changed();
        return { id };
      }
      if (input.type === "edit" || input.type === "delete") {
        const target = chat.find((e) => e.id === input.targetId && e.fromCustomer);
        if (!target) throw new SimulatorError(404, "the customer has no such message");
        if (input.type === "edit") {
          target.body = input.body ?? "";
          target.edited = true;
        } else target.isDeleted = true;
        enqueue(c, {
          kind: "update",
          update: input.type === "edit" ? { messageId: target.id, chatJid, body: target.body } : { messageId: target.id, chatJid, isDeleted: true },
        });
        changed();
        return { id: target.id };
      }
      if (input.type === "typing" || input.type === "recording" || input.type === "paused") {
        enqueue(c, { kind: "presence", update: { chatJid, presence: input.type === "typing" ? "composing" : input.type } });
        return { id };
      }

      const type = normaliseType(input.type);
      let body = input.body ?? "";
      let media: ProviderMessage["media"];
      let entryMedia: ChatEntry["media"];
      let reaction: ProviderMessage["reaction"];
      if (type === "image" || type === "audio" || type === "video" || type === "document" || type === "sticker") {
        const sample = sampleMedia(type as MessageType, body);
        const bytes = input.mediaBase64 ? Buffer.from(input.mediaBase64, "base64") : sample.bytes;
        const mimetype = input.mimetype ?? sample.mimetype;
        const filename = input.filename ?? sample.filename;
        customerMedia.set(id, { bytes, mimetype });
        media = { mimetype, filename, download: async () => bytes };
        entryMedia = { mimetype, filename };
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

      const message: ProviderMessage = {
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
      enqueue(c, { kind: "message", message });
      changed();
      return { id };
    },

    /** The customer's phone reports delivered (3) or read (4) for the business's messages (all, or the ids given). */
    customerAck(number: string, ref: ConnectionRef, ack: 3 | 4, messageIds?: string[]) {
      const customer = ensureCustomer(number);
      const c = resolveConn(ref);
      const chat = chatOf(c, customer.number);
      let count = 0;
      for (const e of chat) {
        if (e.fromCustomer || (messageIds && !messageIds.includes(e.id)) || e.ack >= ack) continue;
        if (ack === 4 && e.ack < 3) ackFromCustomer(c, customer, e, 3);
        ackFromCustomer(c, customer, e, ack);
        count++;
      }
      return { count };
    },

    chat(number: string, ref: ConnectionRef) {
      const customer = ensureCustomer(number);
      const c = resolveConn(ref);
      const chat = chatOf(c, customer.number);
      return { customer, presence: presenceOf.get(chat), messages: chat };
    },

    customerMedia: (id: string) => customerMedia.get(id),

    connections() {
      return [...conns.values()].map((c) => ({ companyId: c.companyId, whatsappId: c.whatsappId, status: c.status, number: c.number ?? null, qr: c.qr ?? null, pairingCodeIssued: Boolean(c.pairingCode), pending: c.pending.length }));
    },

    customers: () => [...customers.values()],

    close() {
      for (const c of conns.values()) stopQr(c);
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
  const presenceOf = new WeakMap<ChatEntry[], string | undefined>();
  return network;
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
