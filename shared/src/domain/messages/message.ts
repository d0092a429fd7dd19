import * as z from "zod";
import { flag, optionalId, optionalText, requiredId } from "../../contracts/body-values";
import { templateSendSchema } from "../cloud-api/message-templates";

/** Message media types of spec 1 section 3 (chat = plain text). */
export const MEDIA_TYPES = [
  "chat",
  "image",
  "audio",
  "video",
  "application",
  "sticker",
  "locationMessage",
  "contactMessage",
  "vcard",
  "reactionMessage",
  "call_log",
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** Acks only move forward: 0 pending, 1 sent, 2 server, 3 delivered, 4 read, 5 played. */
export const nextAck = (current: number, incoming: number): number => Math.max(current, incoming);

export const sendMessageSchema = z.object({
  body: optionalText(z.string().max(65_536)).default(""),
  read: flag().optional(),
  fromMe: flag().optional(),
  mediaUrl: z.string().max(2000).optional().nullable(),
  quotedMsg: z.object({ id: z.string().min(1).max(200) }).passthrough().optional().nullable(),
  /** idempotency key (also accepted as the Idempotency-Key header) */
  idempotencyKey: z.string().min(1).max(100).optional(),
  /** Cloud API connections: an approved message template instead of free text (the only choice once the 24-hour window closed) */
  template: templateSendSchema.optional(),
});
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

export const editMessageSchema = z.object({
  body: z.string().trim().min(1, "Required").max(65_536),
  read: flag().optional(),
  fromMe: flag().optional(),
  mediaUrl: z.string().max(2000).optional().nullable(),
  quotedMsg: z.unknown().optional(),
});
export const reactionSchema = z.object({ type: z.string().max(16) });
export const forwardSchema = z.object({
  messageId: z.string({ error: "ERR_NOT_A_MESSAGE" }).min(1).max(200),
  contactId: requiredId(),
  signMessage: flag().optional().default(false),
});
export const ticketNoteSchema = z.object({
  note: z.string({ error: "Required" }).trim().min(2, "Too Short!").max(5000),
  ticketId: requiredId(),
  contactId: optionalId().transform((v) => v ?? undefined),
});

export type Message = {
  id: string;
  companyId: number;
  ticketId: number;
  contactId: number;
  body: string;
  fromMe: boolean;
  mediaType: MediaType;
  /** API path the browser fetches the media from (authenticated), or null */
  mediaUrl: string | null;
  mediaKey: string | null;
  mediaMimetype: string | null;
  mediaName: string | null;
  /** set when media retention deleted the file (LGPD, docs/adr/0030): the message shows "mídia expirada" */
  mediaExpiredAt?: string | null;
  quotedMsgId: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  isForwarded: boolean;
  ack: number;
  /** set when sending failed: the reason, shown on the message */
  error: string | null;
  reactions: { emoji: string; fromMe: boolean; senderJid: string }[];
  participant: string | null;
  /** a customer's audio as text, made by the AI prompt before it answered (issue 11); absent until then */
  transcript?: string | null;
  /** the audio was longer than the copilot's provider takes: the transcript covers its start only (issue 33) */
  transcriptCut?: boolean;
  /**
   * An automatic message repeating word for word the ticket's previous automatic message (a menu re-sent for an
   * answer the bot did not understand): kept out of the full-text index, whose entry for the first one finds the
   * same ticket by the same words (docs/adr/0061-automatic-answer-work.md). Absent on every other message.
   */
  isRepeat?: boolean;
  /**
   * A whisper (issue 34, docs/adr/0102): a supervisor's or admin's message to the ticket's attendant, kept in the
   * conversation for the company's users only — never sent on any channel, never shown to the customer, marked
   * internal in exports. `userId` is who whispered. Absent on every other message.
   */
  internal?: boolean;
  /** a pressed reply button or list row (Cloud API): the option's id, `body` being its title (issue 30). Absent otherwise. */
  replyId?: string;
  queueId: number | null;
  userId: number | null;
  createdAt: string;
  /**
   * An inbound message's order within its chat (the provider's second is `createdAt`; docs/adr/0066): the
   * conversation sorts by (createdAt, seq, id). Absent on ours and on messages stored before it existed.
   */
  seq?: number;
  updatedAt: string;
};

/** What the composer's recorder names its recordings: `audio-<epoch ms>.<ext>`. */
const RECORDING_NAME = /^audio-\d{10,}\.(ogg|webm|m4a|opus)$/i;

/** Audio WhatsApp plays as a voice note: Opus in an Ogg container (what its own apps record). */
export const isOggOpus = (mimetype: string) => {
  const m = mimetype.toLowerCase().replace(/\s+/g, "");
  return m === "audio/ogg;codecs=opus" || m === "audio/opus" || (m.startsWith("audio/ogg") && !m.includes("codecs="));
};

/**
 * A file is sent as a voice note (PTT) only when it is a recording made in the composer and already Opus in
 * Ogg: an uploaded mp3/m4a, or a browser recording in WebM or MP4, goes as plain audio, which plays everywhere
 * (there is no transcoder yet: ADR 0015).
 */
export const isVoiceNote = (filename: string, mimetype: string) => RECORDING_NAME.test(filename) && isOggOpus(mimetype);

/** A whisper's longest body (issue 34). */
export const WHISPER_MAX = 4096;
/** POST /tickets/{id}/whispers */
export const whisperSchema = z.object({ body: z.string().trim().min(1).max(WHISPER_MAX) });
export type WhisperInput = z.infer<typeof whisperSchema>;
