import type { IncomingCall, MessageUpdate, PresenceUpdate, ProviderMessage } from "@atende/session-host/providers/provider.port";

/**
 * A message as the network carries it: the session host's ProviderMessage, with media held by the network
 * (fetched over HTTP by the business, as from WhatsApp's CDN) instead of a download function.
 */
export type NetworkMessage = Omit<ProviderMessage, "media"> & { media?: { mimetype: string; filename?: string; mediaId: string } };

/** What the simulated network delivers to a connected business client (in order, until acknowledged). */
export type Delivery =
  | { kind: "message"; message: NetworkMessage }
  | { kind: "update"; update: MessageUpdate }
  | { kind: "presence"; update: PresenceUpdate }
  | { kind: "call"; call: IncomingCall };

export type SimConnectionStatus = "offline" | "qrcode" | "PAIRING" | "CONNECTED" | "DISCONNECTED" | "PASSKEY_REQUIRED";

/** One line of a customer's chat with a connection, as the customer sees it. */
export type ChatEntry = {
  id: string;
  /** true: the customer wrote it; false: the business sent it */
  fromCustomer: boolean;
  type: string;
  body: string;
  /** business messages: 1 sent, 2 server, 3 delivered, 4 read. Customer messages: 4 once the business read them */
  ack: number;
  /** `id`: the attachment's unguessable id on this customer's phone (GET /simulator/api/media?phone=&id=) */
  media?: { id: string; key?: string; mimetype: string; filename?: string };
  quotedId?: string;
  isForwarded?: boolean;
  isDeleted?: boolean;
  edited?: boolean;
  reactions: { by: "customer" | "business"; emoji: string }[];
  timestamp: number;
};

export type Customer = { number: string; name: string; autoAck: boolean };

/** A business client attached to the network (a session host's simulator session, over the wire). */
export type SimulatorClient = {
  onQr(qr: string): void;
  /** pairing-code login: the code the phone must enter */
  onPairingCode(code: string): void;
  onPairing(): void;
  onConnected(number: string): void;
  onLoggedOut(): void;
  /** the phone that scanned is passkey-walled: linking stops at WhatsApp's `passkey_prologue_request` */
  onPasskeyRequired(): void;
  /** a newer client of the same connection took its place (WhatsApp's "connection replaced") */
  onReplaced(): void;
  deliver(d: Delivery): Promise<void>;
};

/** Paired connections survive restarts (like WhatsApp keeping a linked device). */
export type PairingStore = {
  load(): Promise<{ companyId: number; whatsappId: number; number: string }[]>;
  save(companyId: number, whatsappId: number, number: string): Promise<void>;
  remove(companyId: number, whatsappId: number): Promise<void>;
};

export const memoryPairingStore = (): PairingStore => {
  const items = new Map<string, { companyId: number; whatsappId: number; number: string }>();
  return {
    load: async () => [...items.values()],
    save: async (companyId, whatsappId, number) => void items.set(`${companyId}:${whatsappId}`, { companyId, whatsappId, number }),
    remove: async (companyId, whatsappId) => void items.delete(`${companyId}:${whatsappId}`),
  };
};

/** A business operation refused (the wire answers it with this code, as the provider's ProviderError). */
export class BusinessError extends Error {
  constructor(
    readonly code: "ERR_WAPP_NOT_INITIALIZED" | "ERR_SENDING_WAPP_MSG" | "ERR_DELETE_WAPP_MSG",
    message?: string,
  ) {
    super(message ?? code);
  }
}

/** A request from the phone's side (page, tests) refused: the HTTP status it answers with. */
export class SimulatorError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 413,
    message: string,
  ) {
    super(message);
  }
}
