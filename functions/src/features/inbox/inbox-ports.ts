import type { Company } from "../companies/companies.repository";
import type { QueueOption } from "../queue-options/queue-options.repository";
import type { Queue } from "../queues/queues.repository";
import type { Whatsapp } from "../whatsapps/whatsapps.repository";

/**
 * What the inbox reads of other features (docs/adr/0023-inbox-feature.md): small interfaces declared here and
 * satisfied by the composition root (`app/inbox-reads.ts`) from those features' services or stores. The inbox holds
 * none of their repositories. The entity types are still the other features' record types (type imports, named
 * only in this file) until each entity is defined once in `shared/` (issue 10 item 7).
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
