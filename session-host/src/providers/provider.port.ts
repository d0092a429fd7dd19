import type { Readable } from "node:stream";
import type { ConnectionStatus } from "@atende/shared/constants/business";
import type { MediaRef, PhoneContact, WaMessage } from "@atende/shared/contracts/queue-messages";

/**
 * The provider port: what the session host needs from a WhatsApp implementation (Baileys in AWS,
 * the simulator on one machine and in tests). A provider only translates; it owns no business rules.
 */

export type SessionIdentity = { companyId: number; whatsappId: number };

/**
 * Inbound media, not yet stored: the host stores it first (media store) and puts a MediaRef in the event.
 * `download` fails with MediaTooLargeError past the size limit (the message then arrives without its media).
 */
export type InboundMedia = {
  mimetype: string;
  filename?: string;
  download: () => Promise<Buffer>;
  /**
   * The media as it is decrypted, capped at the size limit (the stream fails with MediaTooLargeError past it):
   * the host pipes it into the media store without holding it whole. Providers that have it offer it.
   */
  stream?: () => Promise<Readable>;
};

/** Media over the size limit (MAX_MESSAGE_MEDIA_BYTES): refused, never buffered whole. */
export class MediaTooLargeError extends Error {
  constructor(
    readonly limit: number,
    /** the size WhatsApp declared or the bytes read before stopping */
    readonly size?: number,
  ) {
    super(`media over the ${limit}-byte limit${size ? ` (${size} bytes)` : ""}`);
    this.name = "MediaTooLargeError";
  }
}

/** A WhatsApp message as a provider sees it: our waMessage, with media still to be downloaded. */
export type ProviderMessage = Omit<WaMessage, "media" | "body" | "isForwarded" | "mediaRefused"> & {
  body: string;
  isForwarded: boolean;
  media?: InboundMedia;
};

export type MessageUpdate = { messageId: string; chatJid: string; ack?: number; body?: string; isDeleted?: boolean };
export type PresenceUpdate = { chatJid: string; presence: "composing" | "recording" | "available" | "unavailable" | "paused" };
export type IncomingCall = { callId: string; from: string; fromNumber?: string; isVideo: boolean };

export type ConnectionState = {
  status: ConnectionStatus;
  /** the QR string to render (status qrcode); "" otherwise */
  qrcode?: string;
  /** the linked phone's number in digits (CONNECTED) */
  number?: string;
  retries?: number;
  /** the phone unlinked this device: the session was cleared and needs a new QR */
  loggedOut?: boolean;
  /** why the socket closed (DISCONNECTED): loggedOut, forbidden, connectionReplaced ... (ADR 0014) */
  reason?: string;
  /** pairing-code login: the code the phone must enter (status qrcode) */
  pairingCode?: string;
};

/**
 * Events a session reports. The returned promise of message/update handlers resolves only once the event is on
 * the durable queue; a provider acknowledges to WhatsApp (or the simulated network) only after that.
 */
export type ProviderEvents = {
  /** QR shown, pairing, connected, disconnected, timeout ... */
  connection(state: ConnectionState): Promise<void>;
  message(message: ProviderMessage): Promise<void>;
  /** ack (3 delivered, 4 read, 5 played), edit (body) and delete (isDeleted) of a message; reactions come as messages */
  messageUpdate(update: MessageUpdate): Promise<void>;
  presence(update: PresenceUpdate): Promise<void>;
  call(call: IncomingCall): Promise<void>;
  /** a LID and a phone number (both in digits) found to be the same person */
  identity?(link: { lid: string; number: string }): Promise<void>;
  /** a person's profile picture URL (first message, then at most once a day) */
  picture?(p: { chatJid: string; number?: string; lid?: string; url: string }): Promise<void>;
};

/** Outbound media: the functions stored it in the media store; `read` loads the bytes. */
export type OutboundMedia = MediaRef & {
  kind: "image" | "audio" | "video" | "document" | "sticker";
  ptt?: boolean;
  read: () => Promise<Buffer>;
  /** the stored size (checked against the limit before anything is read) */
  byteSize?: () => Promise<number>;
  /** the bytes as a stream (uploads never hold large media whole) */
  stream?: () => Promise<Readable>;
};

export type OutgoingMessage = {
  /** the id to use on WhatsApp, chosen by the functions (a retry reuses it, so it never sends twice) */
  messageId: string;
  chatJid: string;
  body: string;
  media?: OutboundMedia;
  quotedId?: string;
  isForwarded?: boolean;
};

/** One connection's live session, driven by exactly one host (the lease holder). */
export type ProviderSession = {
  /** connects with the stored auth, or shows a QR when there is none */
  start(): Promise<void>;
  /** closes the socket and keeps the auth (another host or a later start continues the session) */
  stop(): Promise<void>;
  /** unlinks the device and clears the auth */
  logout(): Promise<void>;
  /** clears the auth and starts again with a fresh QR */
  requestNewQr(): Promise<void>;
  /**
   * Pairing-code login instead of scanning: asks WhatsApp for a code for this phone number (digits with the
   * country code) once the socket waits for a QR; the code is reported on a connection event (pairingCode).
   */
  requestPairingCode(phoneNumber: string): Promise<void>;
  isConnected(): boolean;
  /**
   * A linked session's socket closed for a routine reason (network, WhatsApp restarting the stream) and is
   * reconnecting: commands wait for it (bounded) instead of failing with ERR_WAPP_NOT_INITIALIZED.
   */
  isReconnecting?(): boolean;
  /**
   * WhatsApp closed this socket because another client attached the same device ("connection replaced"): the
   * session stopped itself. The host dials again if it still holds the lease (a host that lost it dialled late).
   */
  wasReplaced?(): boolean;
  /** resolves once WhatsApp accepted the message (ack 1) with its id */
  send(message: OutgoingMessage): Promise<{ messageId: string }>;
  edit(chatJid: string, targetId: string, body: string): Promise<void>;
  delete(chatJid: string, targetId: string): Promise<void>;
  react(chatJid: string, targetId: string, emoji: string): Promise<void>;
  markRead(chatJid: string, messageIds: string[]): Promise<void>;
  sendPresence(chatJid: string, presence: "composing" | "recording" | "paused"): Promise<void>;
  checkNumber(number: string): Promise<{ exists: boolean; jid?: string }>;
  /** the linked phone's contacts as the session knows them (people only: no groups, no broadcast lists) */
  listContacts(): Promise<PhoneContact[]>;
  /** several numbers in one query (as WhatsApp allows); one answer per number asked, in the same order */
  checkNumbers(numbers: string[]): Promise<{ number: string; exists: boolean; jid?: string }[]>;
  rejectCall(callId: string, from: string): Promise<void>;
};

/** What a provider gets from the host to build a session. */
export type SessionContext = {
  identity: SessionIdentity;
  events: ProviderEvents;
  /**
   * The auth state store of this connection (creds and signal keys). Writes succeed only while this host
   * still holds the connection's lease; a failed write means the lease is lost.
   */
  auth: AuthStore;
};

export type AuthStore = {
  get(type: string, ids: string[]): Promise<Record<string, unknown>>;
  /** writes (value) and deletes (null) in one conditional batch */
  set(data: Record<string, Record<string, unknown | null>>): Promise<void>;
  clear(): Promise<void>;
};

export type Provider = {
  readonly channel: "simulator" | "baileys";
  createSession(ctx: SessionContext): ProviderSession;
};

export class ProviderError extends Error {
  constructor(
    /** an error code of the catalogue, sent back in command.result */
    readonly code: "ERR_WAPP_NOT_INITIALIZED" | "ERR_SENDING_WAPP_MSG" | "ERR_DELETE_WAPP_MSG" | "ERR_WAPP_INVALID_CONTACT" | "ERR_WAPP_CHECK_CONTACT" | "ERR_WAPP_MEDIA_TOO_LARGE" | "ERR_FETCH_WAPP_MSG",
    message?: string,
  ) {
    super(message ?? code);
    this.name = "ProviderError";
  }
}
