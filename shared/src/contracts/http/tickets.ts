import type { Contact } from "../../domain/contacts/contact";
import type { TicketStatus } from "../../domain/tickets/ticket";

/** A ticket as the API and the realtime `ticket` event carry it (spec 1 section 3). */
export type TicketView = {
  id: number;
  uuid: string;
  status: TicketStatus;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  /** provider: "beta" (QR) or "cloudapi" (the official Cloud API: 24-hour window, no editing) */
  whatsapp: { id: number; name: string; status: string; provider?: string } | null;
  contactId: number;
  contact: Pick<Contact, "id" | "name" | "number" | "email" | "profilePicUrl" | "isGroup" | "extraInfo" | "channel" | "channelUserId" | "channelUsername"> | null;
  lastMessage: string;
  updatedAt: string;
  createdAt: string;
  unreadMessages: number;
  tags: { id: number; name: string; color: string }[];
  presence: "composing" | "recording" | null;
  isGroup: boolean;
  chatbot: boolean;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  /** protocol number of the current attention cycle (issue 13: YYYYMMDD + daily sequence, stored, never recomputed) */
  protocol?: string | null;
  /** the SLA clocks of the current cycle, when the queue has an SLA policy (issue 13) */
  sla?: CycleSla | null;
  /** how many times the ticket was written: a later state has a higher version (realtime frames may arrive out of order) */
  version?: number;
};

/** One SLA clock of a cycle: when the target falls due (business time), when it was met, warned (80 %), breached. */
export type SlaClockRecord = {
  targetMinutes: number;
  dueAt: string | null;
  metAt: string | null;
  warnedAt: string | null;
  breachedAt: string | null;
  /** when the clock started (the cycle entered a queue with a policy; next response: the customer's message) */
  startedAt?: string;
  /** when the card turns amber (80 % of the target in business time); null while paused */
  warnAt?: string | null;
  /** resolution only: waiting on the customer since (the clock is stopped; dueAt null meanwhile) */
  pausedSince?: string | null;
  /** resolution only: business milliseconds spent waiting on the customer so far */
  pausedMs?: number;
};

/** The SLA of one attention cycle (queue policy at the time the cycle entered the queue). */
export type CycleSla = {
  firstResponse: SlaClockRecord | null;
  nextResponse: SlaClockRecord | null;
  resolution: SlaClockRecord | null;
};

/** Realtime `sla` event (channel company-{id}-sla): a clock of the ticket's cycle turned amber or fell due. */
export type SlaEventData = { action: "warning" | "breach"; kind: keyof CycleSla; at: string; ticket: TicketView };

/** GET /tickets, GET /ticket/kanban */
/** `nextPageToken`: pass it with the next `pageNumber` to open that page in fewer reads (docs/adr/0040); optional. */
export type TicketListResponse = { tickets: TicketView[]; count: number; hasMore: boolean; nextPageToken?: string };

/** Realtime `ticket` event (channel company-{id}-ticket). */
export type TicketEventData =
  | { action: "update"; ticket: TicketView }
  | { action: "updateUnread"; ticketId: number }
  | { action: "delete"; ticketId: number };

/** Error body of ERR_OTHER_OPEN_TICKET: `data` is the existing ticket. */
export type OtherOpenTicketData = TicketView;

/** One attention cycle (dashboard source; docs/adr/0005-ticket-keys.md). */
export type TicketCycle = {
  ticketId: number;
  companyId: number;
  contactId: number;
  whatsappId: number | null;
  queueId: number | null;
  userId: number | null;
  queuedAt: string;
  acceptedAt: string | null;
  finishedAt: string | null;
  ratedAt: string | null;
  rating: number | null;
  status: TicketStatus;
  /** issue 13: protocol number of this cycle (unique per company, YYYYMMDD + daily sequence) */
  protocol?: string | null;
  /** issue 13: the first message an attendant (not a bot, not an automatic message) sent in this cycle */
  firstResponseAt?: string | null;
  /** issue 13: SLA clocks of this cycle */
  sla?: CycleSla | null;
  /** issue 13 (reports): the queues the cycle went through, in order (older cycles: absent) */
  queuePath?: number[];
  /** issue 13 (reports): every attendant who owned the ticket during the cycle, in order (older cycles: absent) */
  userIds?: number[];
  /** issue 13 (reports): the ticket's tags (kept on the cycle so a period's report reads no ticket) */
  tagIds?: number[];
  /** issue 13 (CSAT): when the rating request was sent to the customer */
  ratingRequestedAt?: string | null;
};

/** One recorded ticket change (who, when, from, to). */
export type TicketChange = {
  ticketId: number;
  at: string;
  byUserId: number | null;
  action: "create" | "accept" | "resolve" | "return" | "reopen" | "transfer" | "update" | "delete" | "expire" | "autoTransfer" | "bot" | "rate";
  from: { status: TicketStatus; userId: number | null; queueId: number | null; whatsappId: number | null } | null;
  to: { status: TicketStatus; userId: number | null; queueId: number | null; whatsappId: number | null } | null;
};
