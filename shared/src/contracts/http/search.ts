import type { TicketStatus } from "../../domain/tickets/ticket";
import type { Segment } from "../../domain/search/text-search";

/** What answered a search: a message of the ticket, its contact's name/number, or its protocol number. */
export type SearchField = "message" | "contact" | "protocol";

/** GET /search: one ticket with the message (or field) that matched, as a highlighted snippet (segments, never HTML). */
export type SearchHit = {
  ticketId: number;
  uuid: string;
  status: TicketStatus;
  queueId: number | null;
  userId: number | null;
  updatedAt: string;
  protocol: string | null;
  contact: { id: number; name: string; number: string; profilePicUrl: string | null } | null;
  field: SearchField;
  /** the matching message (field "message"): open the ticket scrolled to it */
  message: { id: string; createdAt: string; fromMe: boolean } | null;
  snippet: Segment[];
};
export type SearchResponse = { results: SearchHit[]; hasMore: boolean };

/** GET /search/tickets/{ticketId}?q=: the ticket's messages that match, oldest first (the conversation's order). */
export type TicketSearchResponse = { matches: { id: string; createdAt: string }[] };
