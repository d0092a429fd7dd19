import { randomBytes } from "node:crypto";
import type { ChatEntry, Customer, Delivery, PairingStore, SimConnectionStatus, SimulatorClient } from "./network-types";
import { SimulatorError } from "./network-types";

/**
 * The simulated network's state and its delivery queue, shared by its two sides: the business (./business.ts,
 * the session hosts' sessions over the wire) and the phones (./phones.ts, the page and tests).
 */

export type Conn = {
  companyId: number;
  whatsappId: number;
  status: SimConnectionStatus;
  number?: string;
  qr?: string;
  qrTimer?: NodeJS.Timeout;
  /** pairing-code login: the code issued and the number it was issued for (the phone enters it) */
  pairingCode?: { code: string; phoneNumber: string };
  client?: SimulatorClient;
  /** undelivered to the business, oldest first (kept while no host is attached: WhatsApp's offline queue) */
  pending: Delivery[];
  /** the linked phone's address book: number -> the name saved on the phone */
  phoneBook: Map<string, string>;
};

export type ConnectionRef = { companyId: number; whatsappId: number } | { to: string };

/** An attachment on a customer's phone: what the customer sent or received, and only there. */
export type PhoneMedia = { phone: string; bytes: Buffer; mimetype: string };

export type NetworkOptions = { pairing: PairingStore; qrRefreshMs?: number; ackDelayMs?: number; pairingDelayMs?: number };

/** how many undelivered events the network hands a client at once */
const DELIVERY_WINDOW = 10;
export const connKey = (companyId: number, whatsappId: number) => `${companyId}:${whatsappId}`;
export const digits = (jidOrNumber: string) => jidOrNumber.split("@")[0]?.split(":")[0]?.replace(/\D/g, "") ?? "";
export const newId = () => `SIM${randomBytes(10).toString("hex").toUpperCase()}`;
/** 128 random bits: an attachment's id cannot be guessed from another's */
export const newMediaId = () => randomBytes(16).toString("base64url");
export const nowSeconds = () => Math.floor(Date.now() / 1000);

export type NetworkState = ReturnType<typeof createNetworkState>;

export const createNetworkState = (opts: NetworkOptions) => {
  const qrRefreshMs = opts.qrRefreshMs ?? 30_000;
  const conns = new Map<string, Conn>();
  const customers = new Map<string, Customer>();
  /** chats by `${connKey}|${customerNumber}` */
  const chats = new Map<string, ChatEntry[]>();
  /** attachments by their unguessable id, each on one customer's phone */
  const media = new Map<string, PhoneMedia>();
  const presenceOf = new WeakMap<ChatEntry[], string | undefined>();
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

  const unlink = async (c: Conn) => {
    stopQr(c);
    c.number = undefined;
    c.status = "DISCONNECTED";
    c.pending = [];
    await opts.pairing.remove(c.companyId, c.whatsappId);
    c.client?.onLoggedOut();
    changed();
  };

  const ackFromCustomer = (c: Conn, customer: Customer, entry: ChatEntry, ack: 3 | 4) => {
    if (entry.fromCustomer || entry.ack >= ack) return;
    entry.ack = ack;
    enqueue(c, { kind: "update", update: { messageId: entry.id, chatJid: `${customer.number}@s.whatsapp.net`, ack } });
    changed();
  };

  /** keeps an attachment on a customer's phone; its id is what the page (and the business, once) fetch it by */
  const keepMedia = (phone: string, bytes: Buffer, mimetype: string) => {
    const id = newMediaId();
    media.set(id, { phone, bytes, mimetype });
    return id;
  };

  return {
    opts,
    ackDelayMs: opts.ackDelayMs ?? 800,
    pairingDelayMs: opts.pairingDelayMs ?? 300,
    conns,
    customers,
    chats,
    media,
    presenceOf,
    listeners,
    timers,
    changed,
    later,
    conn,
    resolveConn,
    chatOf,
    ensureCustomer,
    stopQr,
    showQr,
    kick,
    enqueue,
    unlink,
    ackFromCustomer,
    keepMedia,
  };
};
