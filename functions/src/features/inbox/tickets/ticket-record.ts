import type { CycleSla, TicketChange, TicketCycle, TicketView } from "@atende/shared/contracts/http/tickets";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import { mapItem, type RecordFields } from "../../../platform/db/map-item";

/** Where the chatbot is with a customer (kept on the ticket, so a restart never forgets). */
export type BotState = {
  stage: "none" | "queues" | "options" | "done";
  /** current option node in the queue's tree (null = the queue's root) */
  optionParentId: number | null;
  /** menus sent this cycle (maxUseBotQueues) */
  sends: number;
  lastSentAt: string | null;
  outOfHoursAt: string | null;
  greetedAt: string | null;
  /** the words of the last automatic message sent with a bot state (a digest): its repeat is not indexed (docs/adr/0061) */
  digest?: string | null;
};
export const NEW_BOT: BotState = { stage: "none", optionParentId: null, sends: 0, lastSentAt: null, outOfHoursAt: null, greetedAt: null };

/** What a ticket starts with besides who, where and how it was opened: no message yet, no tags, no bot turn. */
export const newTicketFields = (at: string) => ({
  lastMessage: "",
  lastMessageLc: "",
  lastMessageAt: at,
  lastFromMe: false,
  lastInboundId: null,
  unreadMessages: 0,
  tagIds: [] as number[],
  presence: null,
  chatbot: false,
  useIntegration: false,
  promptId: null,
  integrationId: null,
  bot: NEW_BOT,
  createdAt: at,
  updatedAt: at,
});

/**
 * The attention cycle as kept on the ticket (copied to the cycle item the dashboard and reports read). Tickets
 * stored before issue 13 lack `protocol`, `firstResponseAt` and `sla`.
 */
export type TicketCycleTimes = {
  queuedAt: string;
  acceptedAt: string | null;
  finishedAt: string | null;
  ratedAt: string | null;
  rating: number | null;
  /** YYYYMMDD + daily sequence, given when the cycle starts, never recomputed (tickets/protocols.ts) */
  protocol?: string | null;
  /** the first message an attendant (not a bot, not an automatic message) sent in the cycle */
  firstResponseAt?: string | null;
  /** the last message an attendant sent in the cycle (SLA: next response, waiting on the customer) */
  lastResponseAt?: string | null;
  /** SLA clocks (features/sla) */
  sla?: CycleSla | null;
  /** reports (issue 13): queues and owners of the cycle in order, when the rating request went out */
  queuePath?: number[];
  userIds?: number[];
  ratingRequestedAt?: string | null;
};

/**
 * What a ticket's card shows of its contact (the API's `TicketView.contact`), copied onto the ticket's list items so a
 * list page needs no read of the contacts (docs/adr/0057). Kept by the ticket's writes (it travels with the record) and
 * by every change of the contact (`TicketsRepository#followContact`).
 */
export type ContactCard = NonNullable<TicketView["contact"]>;
/** The card's copy of a contact (the same fields as the API's `contact` of a ticket, nothing else: no LID, no dates). */
export const contactCardOf = (c: ContactCard): ContactCard => ({
  id: c.id,
  name: c.name,
  number: c.number,
  email: c.email,
  profilePicUrl: c.profilePicUrl,
  isGroup: c.isGroup,
  extraInfo: c.extraInfo,
  // another channel's user (docs/adr/0088): the channel, its user id and handle
  ...(c.channel ? { channel: c.channel, channelUserId: c.channelUserId, channelUsername: c.channelUsername } : {}),
});
/**
 * The largest card copied onto tickets (its JSON, ~150–300 bytes for a usual contact): a contact with long extra fields
 * (up to 50 × 1,000 characters) would make every write of each of its tickets and copies that much larger, so its
 * tickets carry no copy and their cards read the contact, as items written before the copies do.
 */
export const CONTACT_CARD_MAX_BYTES = 2048;
/** The card a ticket of this contact carries: `{ contactCard }`, or `{}` when the card is too large to copy. */
export const contactCardFields = (c: ContactCard): { contactCard?: ContactCard } => {
  const card = contactCardOf(c);
  return Buffer.byteLength(JSON.stringify(card)) <= CONTACT_CARD_MAX_BYTES ? { contactCard: card } : {};
};
/** Whether two copies are the same (`undefined`: no copy — an item written before the copies existed, or too large). */
export const sameContactCard = (a: ContactCard | null | undefined, b: ContactCard | null | undefined) =>
  a === undefined || a === null || b === undefined || b === null ? a === b : JSON.stringify(contactCardOf(a)) === JSON.stringify(contactCardOf(b));

export type TicketRecord = {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  contactId: number;
  chatJid: string;
  isGroup: boolean;
  lastMessage: string;
  lastMessageLc: string;
  lastMessageAt: string;
  /** true when the last message was ours (expiry only closes those) */
  lastFromMe: boolean;
  lastInboundId: string | null;
  unreadMessages: number;
  tagIds: number[];
  presence: "composing" | "recording" | null;
  chatbot: boolean;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  bot: BotState;
  /** the attention cycle's times (copied to the cycle item the dashboard reads) */
  cycle: TicketCycleTimes;
  /** optimistic lock: every write is conditioned on the version it read */
  version: number;
  createdAt: string;
  updatedAt: string;
  /**
   * The contact's card (docs/adr/0057): absent on items written before session 9 (their cards read the contact),
   * null once the contact is deleted (the card shows no contact, as before).
   */
  contactCard?: ContactCard | null;
};

export const toTicket = mapItem<TicketRecord>({
  id: true,
  uuid: true,
  companyId: true,
  status: true,
  userId: true,
  queueId: true,
  whatsappId: true,
  contactId: true,
  chatJid: true,
  isGroup: true,
  lastMessage: true,
  lastMessageLc: true,
  lastMessageAt: true,
  lastFromMe: true,
  lastInboundId: true,
  unreadMessages: true,
  tagIds: true,
  presence: true,
  chatbot: true,
  useIntegration: true,
  promptId: true,
  integrationId: true,
  bot: true,
  cycle: true,
  version: true,
  createdAt: true,
  updatedAt: true,
  contactCard: true,
});
/** The attributes of a ticket its card (the API's TicketView, inbox-directory.ts#toTicketView) and the lists' visibility read. */
export const CARD_FIELDS = {
  id: true,
  uuid: true,
  status: true,
  userId: true,
  queueId: true,
  whatsappId: true,
  contactId: true,
  lastMessage: true,
  updatedAt: true,
  createdAt: true,
  version: true,
  unreadMessages: true,
  tagIds: true,
  presence: true,
  isGroup: true,
  chatbot: true,
  useIntegration: true,
  promptId: true,
  integrationId: true,
  contactCard: true,
} as const satisfies Partial<RecordFields<TicketRecord>>;
/** What a ticket's card reads of it: CARD_FIELDS and, of its cycle, the protocol and the SLA clocks. */
export type TicketCard = Pick<TicketRecord, keyof typeof CARD_FIELDS> & { cycle: Pick<TicketCycleTimes, "protocol" | "sla"> };
export const CARD_ATTRIBUTES = [...Object.keys(CARD_FIELDS), "cycle.protocol", "cycle.sla"];
export const toCardFields = mapItem<Omit<TicketCard, "cycle">>(CARD_FIELDS);
/** A card's item as read with CARD_ATTRIBUTES (a cycle without protocol and SLA comes back without `cycle`). */
export const toCard = (item: Record<string, unknown>): TicketCard => {
  const cycle = (item.cycle ?? {}) as TicketCard["cycle"];
  return { ...toCardFields(item), cycle: { ...(cycle.protocol !== undefined ? { protocol: cycle.protocol } : {}), ...(cycle.sla !== undefined ? { sla: cycle.sla } : {}) } };
};

export const toCycle = mapItem<TicketCycle>({
  ticketId: true,
  companyId: true,
  contactId: true,
  whatsappId: true,
  queueId: true,
  userId: true,
  queuedAt: true,
  acceptedAt: true,
  finishedAt: true,
  ratedAt: true,
  rating: true,
  status: true,
  protocol: true,
  firstResponseAt: true,
  sla: true,
  queuePath: true,
  userIds: true,
  tagIds: true,
  ratingRequestedAt: true,
});
export const toChange = mapItem<TicketChange>({
  ticketId: true,
  at: true,
  byUserId: true,
  action: true,
  from: true,
  to: true,
});
