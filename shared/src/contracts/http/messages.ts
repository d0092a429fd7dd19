import type { Message } from "../../domain/messages/message";
import type { TicketView } from "./tickets";

/** A message as the API and the realtime `appMessage` event carry it. */
export type MessageView = Omit<Message, "mediaKey"> & {
  quotedMsg: Pick<Message, "id" | "body" | "fromMe" | "mediaType"> | null;
  contact: { id: number; name: string; number: string } | null;
};

/** GET /messages/{ticketId} */
export type MessageListResponse = { messages: MessageView[]; ticket: TicketView; count: number; hasMore: boolean };

/** Realtime `appMessage` event (channel company-{id}-appMessage). */
export type AppMessageEventData = { action: "create" | "update"; message: MessageView; ticket: TicketView; contact: TicketView["contact"] };

/** Realtime `whisper` event (channel company-{id}-whisper), to the ticket's attendant only (docs/adr/0102). */
export type WhisperEventData = { action: "create"; ticketId: number; message: MessageView; from: { id: number; name: string } };

/** Realtime `presence` event. */
export type PresenceEventData = { ticketId: number; presence: "composing" | "recording" | "available" | "unavailable" | "paused" };

export type TicketNoteView = {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  /** null: written by the system (a bot handing the ticket over) */
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
};
