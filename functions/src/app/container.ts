import { createAuthService } from "../features/auth/auth.service";
import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { createApiRateRepository } from "../features/external-api/api-rate.repository";
import { createExternalApiService } from "../features/external-api/external-api.service";
import { createLoginThrottleRepository } from "../features/auth/login-throttle.repository";
import { createTokens } from "../features/auth/tokens";
import { createCompaniesRepository } from "../features/companies/companies.repository";
import { createCompaniesService } from "../features/companies/companies.service";
import { createPlansRepository } from "../features/plans/plans.repository";
import { createQueuesRepository } from "../features/queues/queues.repository";
import { createQuickMessagesRepository } from "../features/quick-messages/quick-messages.repository";
import { createQuickMessagesService } from "../features/quick-messages/quick-messages.service";
import { createPromptsRepository } from "../features/prompts/prompts.repository";
import { createPromptsService } from "../features/prompts/prompts.service";
import { createGoogleDialogflowClient } from "../features/queue-integrations/dialogflow-client";
import { createQueueIntegrationsRepository } from "../features/queue-integrations/queue-integrations.repository";
import { createQueueIntegrationsService } from "../features/queue-integrations/queue-integrations.service";
import { createAnnouncementsRepository } from "../features/announcements/announcements.repository";
import { createAnnouncementsService } from "../features/announcements/announcements.service";
import { createFileListsRepository } from "../features/files/file-lists.repository";
import { createFileListsService } from "../features/files/file-lists.service";
import { createSchedulesJob } from "../features/schedules/schedules.job";
import { createSchedulesRepository } from "../features/schedules/schedules.repository";
import { createSchedulesService } from "../features/schedules/schedules.service";
import { createChatsRepository } from "../features/chats/chats.repository";
import { createChatsService } from "../features/chats/chats.service";
import { createCampaignDispatch } from "../features/campaigns/campaign-dispatch.service";
import type { CampaignPacing, CampaignRecipients } from "../features/campaigns/campaign-ports";
import { createCampaignsRepository } from "../features/campaigns/campaigns.repository";
import { createCampaignsService } from "../features/campaigns/campaigns.service";
import { createCampaignSettingsRepository } from "../features/campaign-settings/campaign-settings.repository";
import { createCampaignSettingsService } from "../features/campaign-settings/campaign-settings.service";
import { createContactListsRepository } from "../features/contact-lists/contact-lists.repository";
import { createContactListsService } from "../features/contact-lists/contact-lists.service";
import { createPageCursors } from "../platform/db/page-cursors";
import { createInvoicesRepository } from "../features/invoices/invoices.repository";
import { createInvoicesService } from "../features/invoices/invoices.service";
import { createInvoicesJob } from "../features/invoices/invoices.job";
import { createSubscriptionService } from "../features/subscription/subscription.service";
import { createFakeBank, type FakeBank } from "../platform/payments/fake-bank.adapter";
import { createEfiPixProvider } from "../platform/payments/efi-pix.adapter";
import type { PixProvider } from "../platform/payments/pix-provider.port";
import { createConnectionsRepository } from "../features/realtime/connections.repository";
import { createRealtimeService } from "../features/realtime/realtime.service";
import { createSocketsService } from "../features/realtime/sockets.service";
import { createSeedService } from "../features/seed/seed.service";
import { createSettingsRepository } from "../features/settings/settings.repository";
import { createUsersRepository } from "../features/users/users.repository";
import { createWhatsappsRepository } from "../features/whatsapps/whatsapps.repository";
import { createNumberChecksRepository } from "../features/whatsapps/number-checks.repository";
import { createWhatsappsService } from "../features/whatsapps/whatsapps.service";
import { createHelpsRepository } from "../features/helps/helps.repository";
import { createHelpsService } from "../features/helps/helps.service";
import { createDashboardService } from "../features/dashboard/dashboard.service";
import { createLogosService } from "../features/logos/logos.service";
import { createPasswordResetRepository } from "../features/password-reset/password-reset.repository";
import { createPasswordResetService } from "../features/password-reset/password-reset.service";
import { createPlansService } from "../features/plans/plans.service";
import { createQueueOptionsRepository } from "../features/queue-options/queue-options.repository";
import { createQueueOptionsService } from "../features/queue-options/queue-options.service";
import { createQueuesService } from "../features/queues/queues.service";
import { createSettingsService } from "../features/settings/settings.service";
import { createSignupService } from "../features/signup/signup.service";
import { createSignupThrottleRepository } from "../features/signup/signup-throttle.repository";
import { createUsersService } from "../features/users/users.service";
import { createFileMailer } from "../platform/mail/file-mail.adapter";
import type { Mailer } from "../platform/mail/mail.port";
import { createSesMailer } from "../platform/mail/ses-mail.adapter";
import { createFolderMediaStore } from "../platform/storage/folder-media-store.adapter";
import type { MediaStore } from "../platform/storage/media-store.port";
import { createS3MediaStore } from "../platform/storage/s3-media-store.adapter";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInboxModule } from "../features/inbox/inbox.module";
import { createChannels, createSessionHostChannel } from "../platform/channels/session-host-channel.adapter";
import { requireAuth, requirePlan } from "../platform/http/middleware";
import type { Guards } from "./feature-module";
import { createInboxReads } from "./inbox-reads";
import type { Config } from "../platform/config";
import { createDb, type Db } from "../platform/db/client";
import { createLogger, type Logger } from "../platform/logger";
import { createMetrics, type Metrics } from "../platform/metrics";
import { withDeliveryMetrics } from "../platform/realtime/delivery-metrics";
import type { CommandQueue } from "../platform/queues/commands.port";
import { createSqsCommandQueue } from "../platform/queues/sqs-commands.adapter";
import type { JobQueue } from "../platform/queues/jobs.port";
import { createSqsJobQueue } from "../platform/queues/sqs-jobs.adapter";
import { createPresenceService } from "../features/realtime/presence.service";
import { createApiGatewaySender } from "../platform/realtime/apigateway-sender.adapter";
import type { SocketSender } from "../platform/realtime/sender.port";

/** Ports a caller may replace (tests use in-memory adapters). */
export type Overrides = { sender?: SocketSender; clock?: () => Date; logger?: Logger; db?: Db; commands?: CommandQueue; jobs?: JobQueue; mailer?: Mailer; media?: MediaStore; metrics?: Metrics };

/** Wires repositories, services and adapters once per process (Lambda cold start, local runner, test file). */
export const createContainer = (config: Config, overrides: Overrides = {}) => {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const clock = overrides.clock ?? (() => new Date());
  const metrics = overrides.metrics ?? createMetrics();
  const db = overrides.db ?? createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION });
  const sender = withDeliveryMetrics(
    overrides.sender ??
      (config.WS_MANAGEMENT_ENDPOINT
        ? createApiGatewaySender(config.WS_MANAGEMENT_ENDPOINT, config.AWS_REGION, Boolean(config.DYNAMODB_ENDPOINT))
        : { post: async () => "gone" as const, disconnect: async () => {} }),
    metrics,
    logger,
  );

  const commands: CommandQueue =
    overrides.commands ??
    (config.QUEUE_URL_OUTBOUND
      ? createSqsCommandQueue({ queueUrl: config.QUEUE_URL_OUTBOUND, region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT })
      : {
          send: async () => {
            throw new Error("QUEUE_URL_OUTBOUND is not configured");
          },
        });

  const jobs: JobQueue =
    overrides.jobs ??
    (config.QUEUE_URL_JOBS
      ? createSqsJobQueue({ queueUrl: config.QUEUE_URL_JOBS, region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT })
      : {
          enqueue: async () => {
            throw new Error("QUEUE_URL_JOBS is not configured");
          },
        });

  const mailer: Mailer =
    overrides.mailer ??
    (config.MAIL_DIR
      ? createFileMailer({ dir: config.MAIL_DIR, from: config.MAIL_FROM, logger, clock })
      : createSesMailer({ from: config.MAIL_FROM, region: config.AWS_REGION }));
  const media: MediaStore =
    overrides.media ??
    (config.MEDIA_BUCKET ? createS3MediaStore(config.MEDIA_BUCKET, config.AWS_REGION) : createFolderMediaStore(config.MEDIA_DIR ?? join(tmpdir(), "atende-media")));

  const repos = {
    users: createUsersRepository(db),
    companies: createCompaniesRepository(db),
    plans: createPlansRepository(db),
    settings: createSettingsRepository(db),
    queues: createQueuesRepository(db),
    quickMessages: createQuickMessagesRepository(db),
    whatsapps: createWhatsappsRepository(db),
    numberChecks: createNumberChecksRepository(db),
    connections: createConnectionsRepository(db),
    throttle: createLoginThrottleRepository(db, config.LOGIN_WINDOW_SECONDS),
    queueOptions: createQueueOptionsRepository(db),
    helps: createHelpsRepository(db),
    passwordResets: createPasswordResetRepository(db),
  };
  const tokens = createTokens({
    accessSecret: config.JWT_SECRET,
    refreshSecret: config.JWT_REFRESH_SECRET,
    accessTtl: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtl: config.REFRESH_TOKEN_TTL_SECONDS,
  });
  const realtime = createRealtimeService({ connections: repos.connections, sender, logger });
  const auth = createAuthService({ ...repos, realtime, tokens, logger, clock, maxAttempts: config.LOGIN_MAX_ATTEMPTS });
  const companies = createCompaniesService({ ...repos, clock });
  const presence = createPresenceService({ users: repos.users, realtime, jobs, clock });
  const sockets = createSocketsService({ connections: repos.connections, users: repos.users, presence, auth, jobs, sender, clock, logger });
  const seed = createSeedService({ ...repos, clock, bcryptRounds: config.BCRYPT_ROUNDS });
  const whatsapps = createWhatsappsService({ ...repos, companiesService: companies, realtime, commands, clock, logger, channel: config.WHATSAPP_CHANNEL });
  // administration (docs/adr/0006-admin.md)
  const admin = (() => {
    const rounds = config.BCRYPT_ROUNDS;
    const settings = createSettingsService({ settings: repos.settings, realtime, clock });
    const plans = createPlansService({ plans: repos.plans, companies: repos.companies, clock });
    const queues = createQueuesService({ queues: repos.queues, companies, realtime, media, clock });
    const queueOptions = createQueueOptionsService({ options: repos.queueOptions, queues, media, clock });
    queues.onDelete((q) => queueOptions.removeByQueue(q.companyId, q.id));
    const users = createUsersService({ users: repos.users, queues, companies, whatsapps: repos.whatsapps, realtime, clock, bcryptRounds: rounds });
    companies.onDelete((companyId) => users.removeAllOfCompany(companyId));
    const helps = createHelpsService({ helps: repos.helps, clock });
    const logos = createLogosService({ media, settings: repos.settings, settingsService: settings, clock });
    const signup = createSignupService({ companies, plans, settings, users: repos.users, throttle: createSignupThrottleRepository(db), logger, clock, bcryptRounds: rounds });
    const passwordReset = createPasswordResetService({
      resets: repos.passwordResets,
      users: repos.users,
      mailer,
      logger,
      clock,
      secret: config.JWT_REFRESH_SECRET,
      bcryptRounds: rounds,
      realtime,
    });
    return { settings, plans, queues, queueOptions, users, helps, logos, signup, passwordReset };
  })();
  // the inbox: one module, one facade (docs/adr/0023-inbox-feature.md); it reads other features through inbox-reads
  /** the route guards, built once: every routes factory that takes guards gets this object */
  const guards: Guards = { auth: requireAuth(auth.authenticate), plan: (flag) => requirePlan(companies.assertPlanAllows, flag) };
  const inboxModule = createInboxModule({
    db,
    reads: createInboxReads(repos),
    realtime,
    // the channel registry: one adapter per provider kind; QR sessions (Baileys, simulator) are the only kind today
    channels: createChannels({ "session-host": createSessionHostChannel(commands) }),
    commands,
    jobs,
    media,
    clock,
    logger,
    guards,
    directoryTtlMs: config.INBOX_DIRECTORY_TTL_MS,
  });
  const inbox = inboxModule.service;
  const dashboard = createDashboardService({
    cycles: inbox,
    users: admin.users,
    companies,
    clock,
    sessions: {
      // operator card: connected sessions across the given companies (operator call, one query per company)
      countConnected: async (ids) =>
        (await Promise.all(ids.map((id) => repos.whatsapps.listByCompany(id)))).flat().filter((w) => w.status === "CONNECTED").length,
    },
  });

  const quickMessages = createQuickMessagesService({ quickMessages: repos.quickMessages, realtime, media, cursors: createPageCursors(db), clock });
  // announcements: platform-wide; events reach every company through a paged fan-out job (see the service)
  const announcements = createAnnouncementsService({
    announcements: createAnnouncementsRepository(db),
    realtime,
    media,
    jobs,
    cursors: createPageCursors(db),
    companyIds: async (limit, cursor) => {
      const page = await repos.companies.listPage(limit, cursor);
      return { ids: page.items.map((c) => c.id), cursor: page.cursor };
    },
    clock,
  });
  const fileLists = createFileListsService({ fileLists: createFileListsRepository(db), realtime, media, cursors: createPageCursors(db), clock });

  // AI prompts and queue integrations (spec 3); a queue may only point at its own company's
  const prompts = createPromptsService({ prompts: createPromptsRepository(db), queues: admin.queues, whatsapps, realtime, clock });
  const queueIntegrations = createQueueIntegrationsService({
    integrations: createQueueIntegrationsRepository(db),
    queues: admin.queues,
    whatsapps,
    dialogflow: createGoogleDialogflowClient(),
    realtime,
    cursors: createPageCursors(db),
    clock,
  });
  admin.queues.checkReference("promptId", prompts.exists);
  admin.queues.checkReference("integrationId", queueIntegrations.exists);
  whatsapps.checkReference("promptId", prompts.exists);
  whatsapps.checkReference("integrationId", queueIntegrations.exists);
  admin.queues.onDelete((q) => prompts.detachQueue(q.companyId, q.id));

  // internal chat among a company's users (spec 3)
  const externalApi = createExternalApiService({
    whatsapps: repos.whatsapps,
    companies: repos.companies,
    companiesService: companies,
    contacts: inbox,
    messages: inbox,
    rate: createApiRateRepository(db),
    clock,
  });
  const chats = createChatsService({ chats: createChatsRepository(db), users: admin.users, realtime, cursors: createPageCursors(db), clock });

  // scheduled messages (spec 3): CRUD and the minute tick's sender
  const schedulesRepo = createSchedulesRepository(db);
  const timeZoneOf = async (companyId: number) => (await repos.companies.findById(companyId))?.timezone ?? DEFAULT_TIME_ZONE;
  const schedules = createSchedulesService({ schedules: schedulesRepo, contacts: { get: inbox.getContact }, whatsapps, users: admin.users, realtime, media, cursors: createPageCursors(db), clock, timeZoneOf });
  const schedulesJob = createSchedulesJob({ schedules: schedulesRepo, service: schedules, messages: inbox, companies, media, logger });

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
    });
  const invoices = createInvoicesService({ db, invoices: createInvoicesRepository(db), companies: repos.companies, plans: repos.plans, realtime, cursors: createPageCursors(db), logger, clock });
  const invoicesJob = createInvoicesJob({ invoices });
  const subscription = createSubscriptionService({ invoices, provider: payments, webhookSecret: config.PAYMENTS_WEBHOOK_SECRET, logger, clock });

  // contact lists and campaign settings (spec 3); campaigns read items through contactLists.pageItems
  const contactLists = createContactListsService({
    lists: createContactListsRepository(db),
    whatsapps: repos.whatsapps,
    commands,
    jobs,
    realtime,
    media,
    cursors: createPageCursors(db),
    clock,
    logger,
  });
  const campaignSettings = createCampaignSettingsService({ settings: createCampaignSettingsRepository(db), clock });

  // campaigns (spec 3): recipients from contact lists (valid numbers only), pacing and variables from campaign settings
  const campaignRecipients: CampaignRecipients = {
    findList: (companyId, id) => contactLists.findList(companyId, id),
    pageItems: (companyId, listId, cursor, limit) => contactLists.pageItems(companyId, listId, cursor, limit, { validOnly: true }),
  };
  const campaignPacing: CampaignPacing = { get: (companyId) => campaignSettings.get(companyId) };
  const campaignsRepo = createCampaignsRepository(db);
  const campaigns = createCampaignsService({ campaigns: campaignsRepo, recipients: campaignRecipients, whatsapps: repos.whatsapps, realtime, media, jobs, cursors: createPageCursors(db), clock, timeZoneOf });
  const campaignDispatch = createCampaignDispatch({
    campaigns: campaignsRepo,
    service: campaigns,
    recipients: campaignRecipients,
    pacing: campaignPacing,
    contacts: inbox,
    messages: inbox,
    companies,
    companyRecords: repos.companies,
    media,
    jobs,
    clock,
    logger,
  });

  return { config, logger, metrics, clock, db, commands, jobs, repos, tokens, mailer, media, payments, fakeBank, guards, modules: { inbox: inboxModule }, services: { contactLists, campaignSettings, invoices, invoicesJob, subscription, auth, companies, realtime, presence, sockets, seed, whatsapps, ...admin, ...inboxModule.parts, inbox, dashboard, quickMessages, schedules, schedulesJob, campaigns, campaignDispatch, chats, prompts, queueIntegrations, announcements, fileLists, externalApi } };
};
export type Container = ReturnType<typeof createContainer>;
