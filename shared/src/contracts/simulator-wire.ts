/**
 * The wire between the session host's simulator provider and the simulated WhatsApp network (a local stand-in,
 * infra/local/src/stand-ins/whatsapp/): JSON frames on one WebSocket per session, as a Baileys session holds one
 * socket to WhatsApp. The host never imports the network; this is all they share (docs/adr/0073).
 *
 * - The client opens the socket and sends `attach`; the network answers with the connection's state (`qr`,
 *   `connected` ...). A newer attach of the same connection replaces the older socket (closed with
 *   WIRE_CLOSE_REPLACED), as WhatsApp's "connection replaced".
 * - `call` frames run a business operation (send, edit, markRead ...) and get one `result` each.
 * - The network pushes `deliver` frames (customer messages, acks, presence, calls) in order; the client answers
 *   `ack` once the event is durable (ok) or could not be made so (not ok: delivered again later). What is not
 *   acknowledged stays with the network: a host that dies loses nothing (WhatsApp's offline queue).
 */

export const WIRE_CLOSE_REPLACED = 4000;
export const WIRE_CLOSE_LOGGED_OUT = 4001;

export type WireOp =
  | "logout"
  | "requestPairingCode"
  | "newQr"
  | "send"
  | "edit"
  | "delete"
  | "react"
  | "markRead"
  | "presence"
  | "checkNumber"
  | "listContacts"
  | "checkNumbers"
  | "rejectCall";

/** media of a delivered message: fetched from the network's media URL (as from WhatsApp's CDN) */
export type WireMedia = { mimetype: string; filename?: string; url: string };
/** outgoing media: the bytes, base64 (as an upload to WhatsApp's CDN), and the platform's own reference */
export type WireOutgoingMedia = { kind: string; key: string; mimetype: string; filename?: string; ptt?: boolean; base64: string };

export type WireClientFrame =
  | { t: "attach"; companyId: number; whatsappId: number }
  | { t: "call"; id: number; op: WireOp; args: unknown[] }
  | { t: "ack"; seq: number; ok: boolean };

export type WireServerFrame =
  | { t: "qr"; qr: string }
  | { t: "pairingCode"; code: string }
  | { t: "pairing" }
  | { t: "connected"; number: string }
  | { t: "loggedOut" }
  /** the phone that scanned is passkey-walled: WhatsApp's `passkey_prologue_request` during linking */
  | { t: "passkeyRequired" }
  | { t: "result"; id: number; ok: true; value?: unknown }
  | { t: "result"; id: number; ok: false; code?: string; message: string }
  | { t: "deliver"; seq: number; kind: "message" | "update" | "presence" | "call"; payload: Record<string, unknown> & { media?: WireMedia } };
