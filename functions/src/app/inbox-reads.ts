import type { CompaniesRepository } from "../features/companies/companies.repository";
import type { InboxReads } from "../features/inbox/inbox-ports";
import type { QueueOptionsRepository } from "../features/queue-options/queue-options.repository";
import type { QueuesRepository } from "../features/queues/queues.repository";
import type { SettingsRepository } from "../features/settings/settings.repository";
import type { UserRecord, UsersRepository } from "../features/users/users.repository";
import type { WhatsappsRepository } from "../features/whatsapps/whatsapps.repository";

/** A user as the inbox sees one: no password hash, no refresh ids reach it. */
const inboxUser = (u: UserRecord) => ({ id: u.id, name: u.name, queueIds: u.queueIds });

/**
 * What the inbox reads of other features (features/inbox/inbox-ports.ts), answered by the composition root from
 * their stores: the inbox holds none of their repositories.
 */
export const createInboxReads = (repos: {
  companies: Pick<CompaniesRepository, "findById">;
  queues: Pick<QueuesRepository, "findById" | "listByCompany" | "remember">;
  users: Pick<UsersRepository, "findById" | "listByCompany">;
  whatsapps: Pick<WhatsappsRepository, "findById" | "listByCompany">;
  settings: Pick<SettingsRepository, "list">;
  queueOptions: Pick<QueueOptionsRepository, "findById" | "listChildren">;
}): InboxReads => ({
  companies: { findById: (companyId) => repos.companies.findById(companyId) },
  queues: {
    findById: (companyId, id) => repos.queues.findById(companyId, id),
    listByCompany: (companyId) => repos.queues.listByCompany(companyId),
    remember: (companyId, queues, readAt) => repos.queues.remember(companyId, queues, readAt),
  },
  users: {
    findById: async (companyId, id) => {
      const u = await repos.users.findById(companyId, id);
      return u ? inboxUser(u) : null;
    },
    listByCompany: async (companyId) => (await repos.users.listByCompany(companyId)).map(inboxUser),
  },
  whatsapps: { findById: (companyId, id) => repos.whatsapps.findById(companyId, id), listByCompany: (companyId) => repos.whatsapps.listByCompany(companyId) },
  settings: { list: (companyId) => repos.settings.list(companyId) },
  queueOptions: { findById: (companyId, id) => repos.queueOptions.findById(companyId, id), listChildren: (companyId, queueId, parentId) => repos.queueOptions.listChildren(companyId, queueId, parentId) },
});
