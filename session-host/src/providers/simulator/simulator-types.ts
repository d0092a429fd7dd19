import type { MessageUpdate, PresenceUpdate, IncomingCall, ProviderMessage } from "../provider.port";

/** What the simulated network delivers to a connected business client (in order, until acknowledged). */
export type Delivery =
  | { kind: "message"; message: ProviderMessage }
  | { kind: "update"; update: MessageUpdate }
  | { kind: "presence"; update: PresenceUpdate }
  | { kind: "call"; call: IncomingCall };

export type SimConnectionStatus = "offline" | "qrcode" | "PAIRING" | "CONNECTED" | "DISCONNECTED";

/** One line of a customer's chat with a connection, as the customer sees it. */
export type ChatEntry = {
  id: string;
  /** true: the customer wrote it; false: the business sent it */
  fromCustomer: boolean;
  type: string;
  body: string;
  /** business messages: 1 sent, 2 server, 3 delivered, 4 read. Customer messages: 4 once the business read them */
  ack: number;
  media?: { key?: string; mimetype: string; filename?: string };
  quotedId?: string;
  isForwarded?: boolean;
  isDeleted?: boolean;
  edited?: boolean;
  reactions: { by: "customer" | "business"; emoji: string }[];
  timestamp: number;
};

export type Customer = { number: string; name: string; autoAck: boolean };

/** A business client attached to the network (the simulator provider's session). */
export type SimulatorClient = {
  onQr(qr: string): void;
  /** pairing-code login: the code the phone must enter */
  onPairingCode(code: string): void;
  onPairing(): void;
  onConnected(number: string): void;
  onLoggedOut(): void;
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
