import type { BotTicket } from "../bots/bot-inbox.port";
import type { CycleSla } from "@atende/shared/contracts/http/tickets";
import type { Company } from "@atende/shared/domain/companies/company";
import type { Queue } from "@atende/shared/domain/queues/queue";
import type { Whatsapp } from "@atende/shared/domain/whatsapps/whatsapp";
import type { QueueOption } from "@atende/shared/domain/queue-options/queue-option";

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
  queues: { findById(companyId: number, id: number): Promise<InboxQueue | null>; listByCompany(companyId: number): Promise<InboxQueue[]> };
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
