import * as z from "zod";
import { CONNECTION_STATUSES } from "../constants/business";

/**
 * Messages between the session host and the functions (ARCHITECTURE "The main flows").
 * inbound.fifo: session host -> functions (group id: `${companyId}:${whatsappId}:${chatJid}` for chat events,
 *   `${companyId}:${whatsappId}` for connection events; dedup id: `${companyId}:${whatsappId}:${eventId}`)
 * outbound.fifo: functions -> session host (group id: `${whatsappId}`, dedup id: commandId)
 * Change these only additively: both sides read them.
 */

/** A stored media object: the key in the media store (S3 bucket / local folder), never the bytes. */
export const mediaRefSchema = z.object({
  key: z.string(),
  mimetype: z.string(),
  filename: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
});
export type MediaRef = z.infer<typeof mediaRefSchema>;

export const MESSAGE_TYPES = [
  "chat",
  "image",
  "audio",
  "video",
  "document",
  "sticker",
  "locationMessage",
  "contactMessage",
  "reactionMessage",
  "call_log",
] as const;

export const waMessageSchema = z.object({
  /** WhatsApp message id (ours too: we choose the id before sending, so echoes are recognised by id) */
  id: z.string().min(1),
  /** the chat: a person's jid (5511999999999@s.whatsapp.net or ...@lid) or a group's (...@g.us) */
  chatJid: z.string().min(1),
  fromMe: z.boolean(),
  isGroup: z.boolean(),
  groupSubject: z.string().optional(),
  /** who wrote it: in a 1:1 chat the contact, in a group the participant */
  sender: z.object({
    jid: z.string(),
    /** the phone number in digits when known (LID-only senders may lack it) */
    number: z.string().optional(),
    lid: z.string().optional(),
    pushName: z.string().optional(),
    /** another channel's handle of the sender (Telegram's username, without "@"; docs/adr/0088) */
    username: z.string().max(100).optional(),
  }),
  type: z.enum(MESSAGE_TYPES),
  body: z.string().default(""),
  media: mediaRefSchema.optional(),
  /** media WhatsApp sent that was not stored: over the size limit (MAX_MESSAGE_MEDIA_BYTES) */
  mediaRefused: z.object({ reason: z.literal("tooLarge"), size: z.number().int().nonnegative().optional(), limit: z.number().int().positive() }).optional(),
  quotedId: z.string().optional(),
  isForwarded: z.boolean().default(false),
  /** location: "imageUrl|mapsLink|description" as the spec stores it; vcard: the vcard text */
  timestamp: z.number().int(),
  /**
   * Order within the chat (docs/adr/0066): increasing in the order the provider handed the chat's messages over (the
   * session host per chat, the Cloud API webhook in payload order); breaks ties of `timestamp` (whole seconds).
   * Absent from events queued before it existed.
   */
  seq: z.number().int().nonnegative().optional(),
  /** a pressed reply button or list row (Cloud API interactive replies): the option's id; `body` is its title (issue 30) */
  replyId: z.string().min(1).max(256).optional(),
  /** reaction messages: the reacted message id and emoji ("" removes) */
  reaction: z.object({ targetId: z.string(), emoji: z.string() }).optional(),
  /**
   * Cloud API media not yet in our storage (the webhook only enqueues): the consumer downloads it (media id → URL →
   * bytes, with the connection's token) into the media store and sets `media` before the message is stored.
   */
  remoteMedia: z
    .object({
      /** "cloudapi": a media id fetched with the token; "meta": a Messenger/Instagram attachment URL (docs/adr/0090) */
      provider: z.enum(["cloudapi", "meta"]),
      id: z.string().min(1).max(200),
      mimetype: z.string().max(200),
      filename: z.string().max(300).optional(),
      url: z.string().max(4000).optional(),
    })
    .optional(),
});
export type WaMessage = z.infer<typeof waMessageSchema>;

/** One entry of the linked phone's contacts, as the session knows it (number and/or LID, the name saved on the phone). */
export const phoneContactSchema = z.object({
  jid: z.string().min(1),
  number: z.string().optional(),
  lid: z.string().optional(),
  name: z.string().optional(),
});
export type PhoneContact = z.infer<typeof phoneContactSchema>;
/** Contacts per contacts.listed event (keeps one event far below the queue's 256 KiB message limit). */
export const PHONE_CONTACTS_PER_EVENT = 500;

const base = { eventId: z.string().min(1), companyId: z.number().int().positive(), whatsappId: z.number().int().positive() };

export const inboundEventSchema = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("message"), message: waMessageSchema }),
  z.object({
    ...base,
    type: z.literal("message.update"),
    messageId: z.string(),
    chatJid: z.string(),
    ack: z.number().int().min(0).max(5).optional(),
    body: z.string().optional(),
    isDeleted: z.boolean().optional(),
  }),
  z.object({
    ...base,
    type: z.literal("connection"),
    status: z.enum(CONNECTION_STATUSES),
    qrcode: z.string().default(""),
    number: z.string().optional(),
    retries: z.number().int().default(0),
    /** logged out from the phone: the session was cleared and needs a new QR */
    loggedOut: z.boolean().optional(),
    /** why the WhatsApp socket closed (DISCONNECTED): the close reason of ADR 0014, e.g. forbidden, connectionReplaced */
    reason: z.string().max(64).optional(),
    /** pairing-code login: the 8-character code the phone must enter (status qrcode), after session.pairingCode */
    pairingCode: z.string().max(16).optional(),
  }),
  z.object({ ...base, type: z.literal("presence"), chatJid: z.string(), presence: z.enum(["composing", "recording", "available", "unavailable", "paused"]) }),
  z.object({ ...base, type: z.literal("call"), callId: z.string(), from: z.string(), fromNumber: z.string().optional(), isVideo: z.boolean().default(false) }),
  /** the result of an outbound command: accepted by WhatsApp (ack 1) or failed with a reason */
  z.object({ ...base, type: z.literal("command.result"), commandId: z.string(), messageId: z.string().optional(), ok: z.boolean(), error: z.string().optional() }),
  /** WhatsApp says this LID and this phone number (digits) are the same person (Baileys' lid-mapping.update) */
  z.object({ ...base, type: z.literal("contact.identity"), lid: z.string().min(1), number: z.string().regex(/^\d{8,15}$/) }),
  /** a person's profile picture (WhatsApp CDN URL), fetched when they first write and at most once a day after */
  z.object({
    ...base,
    type: z.literal("contact.picture"),
    chatJid: z.string().min(1),
    number: z.string().optional(),
    lid: z.string().optional(),
    profilePicUrl: z.string().url().max(2048),
  }),
  /** answer to checkNumber, and to each number of checkNumbers */
  z.object({ ...base, type: z.literal("number.checked"), requestId: z.string(), number: z.string(), exists: z.boolean(), jid: z.string().optional() }),
  /**
   * answer to listContacts: the phone's contacts in parts of at most PHONE_CONTACTS_PER_EVENT (`last` on the final
   * part); `error` (a catalogue code) when the session could not list them
   */
  z.object({
    ...base,
    type: z.literal("contacts.listed"),
    requestId: z.string(),
    part: z.number().int().nonnegative(),
    last: z.boolean(),
    contacts: z.array(phoneContactSchema).max(500),
    error: z.string().optional(),
  }),
]);
export type InboundEvent = z.infer<typeof inboundEventSchema>;

/** the most numbers one checkNumbers command (one WhatsApp query) carries */
export const MAX_NUMBERS_PER_CHECK = 25;

const cmd = { commandId: z.string().min(1), companyId: z.number().int().positive(), whatsappId: z.number().int().positive() };

export const outboundCommandSchema = z.discriminatedUnion("type", [
  z.object({
    ...cmd,
    type: z.literal("send"),
    /** the message id to use on WhatsApp (chosen by us, stored before sending) */
    messageId: z.string().min(1),
    chatJid: z.string().min(1),
    body: z.string().default(""),
    media: mediaRefSchema.extend({ kind: z.enum(["image", "audio", "video", "document", "sticker"]), ptt: z.boolean().optional() }).optional(),
    quotedId: z.string().optional(),
    isForwarded: z.boolean().optional(),
    /** a campaign message: paced per recipient where the provider has a pair rate (Cloud API: one every 6 s) */
    bulk: z.boolean().optional(),
    /**
     * A bot turn's later message: the message id (of the same chat) that must reach the customer first. Channels whose
     * sends run side by side as jobs (Cloud API, Messenger/Instagram) hold it until that one settled (ADR 0106); the
     * session host's queue is in order per connection already and ignores it.
     */
    after: z.string().min(1).optional(),
    /** a later message of the same chat waits for this one to settle (sent or failed for good): say so when it does */
    followed: z.boolean().optional(),
    /** Cloud API only: an approved message template (body holds its rendered text, for the record) */
    template: z
      .object({ name: z.string().min(1).max(512), language: z.string().min(2).max(16), components: z.array(z.record(z.string(), z.unknown())).max(10).default([]) })
      .optional(),
    /**
     * issue 30: a menu. Cloud API sends it as reply buttons (≤ 3) or a list (≤ 10) with `text` as its body; a channel
     * without interactive messages (QR sessions) sends `body`, the same menu as numbered text.
     */
    interactive: z
      .discriminatedUnion("kind", [
        z.object({ kind: z.literal("buttons"), text: z.string().max(1024), buttons: z.array(z.object({ id: z.string().max(256), title: z.string().max(20) })).min(1).max(3) }),
        z.object({ kind: z.literal("list"), text: z.string().max(4096), button: z.string().max(20), rows: z.array(z.object({ id: z.string().max(200), title: z.string().max(24) })).min(1).max(10) }),
      ])
      .optional(),
  }),
  z.object({ ...cmd, type: z.literal("edit"), chatJid: z.string(), targetId: z.string(), body: z.string() }),
  z.object({ ...cmd, type: z.literal("delete"), chatJid: z.string(), targetId: z.string() }),
  z.object({ ...cmd, type: z.literal("react"), chatJid: z.string(), targetId: z.string(), emoji: z.string() }),
  z.object({ ...cmd, type: z.literal("read"), chatJid: z.string(), messageIds: z.array(z.string()) }),
  z.object({ ...cmd, type: z.literal("presence"), chatJid: z.string(), presence: z.enum(["composing", "recording", "paused"]) }),
  z.object({ ...cmd, type: z.literal("checkNumber"), requestId: z.string(), number: z.string() }),
  /** POST /contacts/import: list the linked phone's contacts (answered by contacts.listed events) */
  z.object({ ...cmd, type: z.literal("listContacts"), requestId: z.string() }),
  /** several numbers in one WhatsApp query (onWhatsApp takes a list); answered by one number.checked per number */
  z.object({ ...cmd, type: z.literal("checkNumbers"), checks: z.array(z.object({ requestId: z.string(), number: z.string() })).min(1).max(MAX_NUMBERS_PER_CHECK) }),
  z.object({ ...cmd, type: z.literal("rejectCall"), callId: z.string(), from: z.string() }),
  /** channel: which provider drives the connection (the connection's `channel`); the host's default when absent */
  z.object({ ...cmd, type: z.literal("session.start"), channel: z.enum(["simulator", "baileys"]).optional() }),
  z.object({ ...cmd, type: z.literal("session.stop") }),
  z.object({ ...cmd, type: z.literal("session.logout") }),
  z.object({ ...cmd, type: z.literal("session.newQr"), channel: z.enum(["simulator", "baileys"]).optional() }),
  /** pairing-code login (instead of scanning): phoneNumber in digits with the country code; the code comes back on a connection event */
  z.object({ ...cmd, type: z.literal("session.pairingCode"), phoneNumber: z.string().regex(/^\d{10,15}$/), channel: z.enum(["simulator", "baileys"]).optional() }),
]);
export type OutboundCommand = z.infer<typeof outboundCommandSchema>;
