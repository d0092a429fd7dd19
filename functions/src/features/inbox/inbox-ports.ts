import type { TxItem } from "../../platform/db/transact";
import type { BotTicket } from "../bots/bot-inbox.port";
import type { CycleSla } from "@atende/shared/contracts/http/tickets";
import type { Company } from "@atende/shared/domain/companies/company";
import type { Queue } from "@atende/shared/domain/queues/queue";
import type { Whatsapp } from "@atende/shared/domain/whatsapps/whatsapp";
import type { QueueOption } from "@atende/shared/domain/queue-options/queue-option";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Message } from "@atende/shared/domain/messages/message";

/**
 * What the inbox reads of other features (docs/adr/0023-inbox-feature.md): small interfaces declared here and
 * satisfied by the composition root (`app/inbox-reads.ts`) from those features' services or stores. The inbox holds
 * none of their repositories. The entity types come from `shared/` (the queue option's still from its repository).
 */
export type InboxCompany = Company;
export type InboxQueue = Queue;
export type InboxWhatsapp = Whatsapp;
export type InboxQueueOption = QueueOption;
/** A user as the inbox sees one: who owns or wrote something. Never the password hash or the refresh ids. */
export type InboxUser = { id: number; name: string; queueIds: number[] };
export type InboxSetting = { key: string; value: string };

export type InboxReads = {
  companies: { findById(companyId: number): Promise<InboxCompany | null> };
  queues: {
    findById(companyId: number, id: number): Promise<InboxQueue | null>;
    listByCompany(companyId: number): Promise<InboxQueue[]>;
    /** the queues as a list read them at `readAt`: the unit of work's `findById` answers from them (≤ 1 s, docs/adr/0058) */
    remember?(companyId: number, queues: InboxQueue[], readAt: number): void;
  };
  users: { findById(companyId: number, id: number): Promise<InboxUser | null>; listByCompany(companyId: number): Promise<InboxUser[]> };
  whatsapps: { findById(companyId: number, id: number): Promise<InboxWhatsapp | null>; listByCompany(companyId: number): Promise<InboxWhatsapp[]> };
  settings: { list(companyId: number): Promise<InboxSetting[]> };
  /** the queues' option trees (the chooser automation walks) */
  queueOptions: {
    findById(companyId: number, id: number): Promise<InboxQueueOption | null>;
    listChildren(companyId: number, queueId: number, parentId: number | null): Promise<InboxQueueOption[]>;
  };
};

/**
 * The SLA planner (features/sla, docs/adr/0033): the cycle's clocks after a ticket change, run by every ticket
 * write before its transaction (so the clocks are stored with the change). null: the cycle has no clocks.
 */
export type InboxSla = {
  evaluate(
    t: {
      companyId: number;
      queueId: number | null;
      status: "pending" | "open" | "closed";
      lastFromMe: boolean;
      lastMessageAt: string;
      cycle: { finishedAt: string | null; firstResponseAt?: string | null; lastResponseAt?: string | null; sla?: CycleSla | null };
    },
    now: Date,
  ): Promise<CycleSla | null>;
};

/**
 * Told of a customer message after automation is done with it (ADR 0026: the bot runner's intake queues a turn).
 * `ticket` is the ticket as stored with the message (before automation ran for it); a handler's failure is logged.
 */
export type CustomerMessageHandler = (ticket: BotTicket, message: { id: string; fromMe: boolean }) => Promise<unknown>;

/** The ticket a message or contact listener is told about (its protocol number when the SLA feature set one). */
export type ListenedTicket = {
  id: number;
  companyId: number;
  contactId: number;
  createdAt: string;
  protocol?: string | null;
  /** the ticket's uuid, owner and queue when told of a message (Web Push's rules, docs/adr/0097) */
  uuid?: string;
  userId?: number | null;
  queueId?: number | null;
};
/**
 * Told of every message stored, edited or deleted (`update` carries `isDeleted`) and of every contact change, after the
 * realtime event (the search index, docs/adr/0035). Lists passed at construction (ADR 0024); a listener's failure
 * is its own (it logs), never the message's.
 */
export type InboxListeners = {
  onMessage?: Array<(action: "create" | "update", m: Message, t: ListenedTicket, contact: Contact | null) => Promise<void>>;
  onContact?: Array<(contact: Contact, tickets: ListenedTicket[]) => Promise<void>>;
};
/**
 * The attendants' slot counters (docs/adr/0032, presence feature): items a ticket's own transaction carries when
 * the ticket becomes or stops being someone's open ticket. `takeSlotItem` is an automatic assignment's guarded
 * increment (online and under capacity, else the whole transaction fails).
 */
export type TicketSlots = {
  deltaItem(companyId: number, userId: number, delta: 1 | -1): TxItem;
  takeSlotItem(companyId: number, userId: number, capacity: number, now: Date, ticketId: number): TxItem;
};
/**
 * The supervisors' board (features/supervisor, docs/adr/0101): its items for a ticket moving from `before` to `after`
 * (null: created / deleted), written in the ticket's own transaction.
 */
export type TicketBoard = {
  items(
    before: { id: number; companyId: number; status: "open" | "pending" | "closed"; queueId: number | null; userId: number | null; cycle: { queuedAt: string; sla?: CycleSla | null } } | null,
    after: { id: number; companyId: number; status: "open" | "pending" | "closed"; queueId: number | null; userId: number | null; cycle: { queuedAt: string; sla?: CycleSla | null } } | null,
  ): TxItem[];
};
/** What a ticket-change listener sees of a ticket. */
export type TicketSnapshot = {
  id: number;
  /** the ticket's public id (every stored ticket has one; Web Push's links use it) */
  uuid?: string;
  companyId: number;
  status: "open" | "pending" | "closed";
  userId: number | null;
  queueId: number | null;
  contactId: number;
  isGroup: boolean;
  bot: { stage: string };
};
/**
 * Told after every committed ticket write (before: null for a new ticket), e.g. distribution's trigger. Runs after
 * the transaction; a listener's failure is swallowed (the minute tick is the safety net).
 */
export type TicketChangeListener = (before: TicketSnapshot | null, after: TicketSnapshot, change: { byUserId: number | null }) => Promise<unknown>;
