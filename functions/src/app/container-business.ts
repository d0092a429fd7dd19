import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { createQuickMessagesModule } from "../features/quick-messages/quick-messages.module";
import { createAnnouncementsModule } from "../features/announcements/announcements.module";
import { createFileListsModule } from "../features/files/file-lists.module";
import { createSchedulesModule } from "../features/schedules/schedules.module";
import { createChatsModule } from "../features/chats/chats.module";
import type { CampaignPacing, CampaignRecipients } from "../features/campaigns/campaign-ports";
import { createCampaignsModule } from "../features/campaigns/campaigns.module";
import { createCampaignSettingsModule } from "../features/campaign-settings/campaign-settings.module";
import { createContactListsModule } from "../features/contact-lists/contact-lists.module";
import { createInvoicesModule } from "../features/invoices/invoices.module";
import { createSubscriptionModule } from "../features/subscription/subscription.module";
import { createFakeBank, type FakeBank } from "../platform/payments/fake-bank.adapter";
import { createEfiPixProvider } from "../platform/payments/efi-pix.adapter";
import type { PixProvider } from "../platform/payments/pix-provider.port";
import { createExternalApiModule } from "../features/external-api/external-api.module";
import { createLgpdModule } from "../features/lgpd/lgpd.module";
import { createReportsModule } from "../features/reports/reports.module";
import type { Base } from "./container-adapters";
import type { Foundation } from "./container-foundation";
import type { Administration } from "./container-administration";
import type { InboxStage } from "./container-inbox";

/** Stage 5 of the composition: the tools around the inbox: quick messages, announcements, files, the external API, chats, schedules, billing, contact lists, campaigns, LGPD and reports. */
export const composeBusiness = (deps: Base & Foundation & Administration & InboxStage) => {
  const { config, logger, clock, metrics, db, commands, jobs, media, spreadsheets, repos, realtime, audit, companies, guards, cloudApiModule, whatsapps, usersModule, consent, searchIndexing, inbox, outbound, pushModule } = deps;
  const quickMessagesModule = createQuickMessagesModule({ db, realtime, media, clock, guards });
  // announcements: platform-wide; events reach every company through a paged fan-out job (see the service)
  const announcementsModule = createAnnouncementsModule({
    db,
    realtime,
    media,
    jobs,
    companyIds: async (limit, cursor) => {
      const page = await repos.companies.listPage(limit, cursor);
      return { ids: page.items.map((c) => c.id), cursor: page.cursor };
    },
    clock,
    guards,
    // Web Push: a published announcement notifies each company's users (from the fan-out job)
    onPublished: [(companyId, a) => pushModule.rules.announcement(companyId, a)],
  });
  const fileListsModule = createFileListsModule({ db, realtime, media, clock, guards });
  const externalApiModule = createExternalApiModule({
    limiter: repos.limiter,
    whatsapps: repos.whatsapps,
    companies: repos.companies,
    companiesService: companies,
    contacts: inbox,
    messages: inbox,
    isOptedOut: consent.isOptedOut,
    templates: cloudApiModule.service,
    clock,
  });
  // internal chat among a company's users (spec 3)
  const chatsModule = createChatsModule({ db, users: usersModule.service, realtime, clock, guards, onMessage: [pushModule.rules.chatMessage] });

  // scheduled messages (spec 3): CRUD and the minute tick's sender
  const timeZoneOf = async (companyId: number) => (await repos.companies.findById(companyId))?.timezone ?? DEFAULT_TIME_ZONE;
  const schedulesModule = createSchedulesModule({
    db,
    contacts: { get: inbox.getContact },
    whatsapps,
    users: usersModule.service,
    realtime,
    media,
    clock,
    timeZoneOf,
    messages: inbox,
    companies,
    logger,
    guards,
    // Cloud API schedules may carry an approved template (docs/adr/0042)
    templates: cloudApiModule.service,
  });

  // invoices and Pix checkout (docs/billing.md): the fake bank locally and in tests, a PSP adapter in AWS
  const fakeBank: FakeBank | null = config.PAYMENTS_PROVIDER === "fake" ? createFakeBank({ webhookSecret: config.PAYMENTS_WEBHOOK_SECRET, clock, logger }) : null;
  const payments: PixProvider =
    fakeBank ??
    createEfiPixProvider({
      baseUrl: config.EFI_BASE_URL,
      clientId: config.EFI_CLIENT_ID,
      clientSecret: config.EFI_CLIENT_SECRET,
      pixKey: config.EFI_PIX_KEY,
      certPath: config.EFI_CERT_PATH,
      certPassphrase: config.EFI_CERT_PASSPHRASE,
      lookup: outbound.lookup,
    });
  const invoicesModule = createInvoicesModule({ db, companies: repos.companies, plans: repos.plans, realtime, logger, clock, guards });
  const subscriptionModule = createSubscriptionModule({ invoices: invoicesModule.service, provider: payments, webhookSecret: config.PAYMENTS_WEBHOOK_SECRET, logger, clock, metrics, guards });

  // contact lists and campaign settings (spec 3); campaigns read items through contactLists.pageItems
  const contactListsModule = createContactListsModule({ db, spreadsheets, whatsapps: repos.whatsapps, commands, jobs, realtime, media, clock, logger, guards, erasedAmong: consent.erasedAmong });
  const contactLists = contactListsModule.service;
  const campaignSettingsModule = createCampaignSettingsModule({ db, clock, guards });

  // campaigns (spec 3): recipients from contact lists (valid numbers only), pacing and variables from campaign settings
  const campaignRecipients: CampaignRecipients = {
    findList: (companyId, id) => contactLists.findList(companyId, id),
    pageItems: (companyId, listId, cursor, limit) => contactLists.pageItems(companyId, listId, cursor, limit, { validOnly: true }),
  };
  const campaignPacing: CampaignPacing = { get: (companyId) => campaignSettingsModule.service.get(companyId) };
  const campaignsModule = createCampaignsModule({ audit,
    db,
    recipients: campaignRecipients,
    pacing: campaignPacing,
    whatsapps: repos.whatsapps,
    realtime,
    media,
    jobs,
    clock,
    timeZoneOf,
    contacts: inbox,
    messages: inbox,
    companies,
    companyRecords: repos.companies,
    logger,
    guards,
    consent,
    // Cloud API campaigns: approved templates only (ADR 0031)
    templates: cloudApiModule.service,
  });

  // LGPD (docs/adr/0030): export and erasure of a person, opt-outs, media retention; after the inbox (its inbound
  // handler runs after the inbox stored the message).
  const lgpdModule = createLgpdModule({
    db,
    config,
    media,
    jobQueue: jobs,
    audit,
    publishToAdmins: (companyId, event, data) => realtime.publish(companyId, event, data, { kind: "admins" }),
    inbox,
    afterErase: [(companyId, ids) => searchIndexing.indexer.forget(companyId, ids)],
    companySince: async (companyId) => (await repos.companies.findById(companyId))?.createdAt ?? null,
    guards,
    logger,
    clock,
  });

  // reports (docs/adr/0034): the inbox's attention cycles through its facade; the company's names from the repositories
  const reportsModule = createReportsModule({
    db,
    inbox,
    directory: {
      queues: async (companyId) => (await repos.queues.listByCompany(companyId)).map((q) => ({ id: q.id, name: q.name })),
      users: async (companyId) => (await repos.users.listByCompany(companyId)).map((u) => ({ id: u.id, name: u.name })),
      whatsapps: async (companyId) => (await repos.whatsapps.listByCompany(companyId)).map((w) => ({ id: w.id, name: w.name })),
      timeZone: async (companyId) => (await companies.findById(companyId))?.timezone ?? DEFAULT_TIME_ZONE,
    },
    media,
    jobQueue: jobs,
    publishToUsers: (companyId, userIds, event, data) => realtime.publish(companyId, event, data, { kind: "users", userIds }),
    guards,
    logger,
    clock,
    inlineRows: config.REPORTS_INLINE_EXPORT_ROWS,
  });
  return { quickMessagesModule, announcementsModule, fileListsModule, externalApiModule, chatsModule, timeZoneOf, schedulesModule, fakeBank, payments, invoicesModule, subscriptionModule, contactListsModule, contactLists, campaignSettingsModule, campaignRecipients, campaignPacing, campaignsModule, lgpdModule, reportsModule };
};
export type Business = ReturnType<typeof composeBusiness>;
