import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { createLoginThrottleRepository } from "../features/auth/login-throttle.repository";
import { createAuthModule } from "../features/auth/auth.module";
import { createTokens } from "../features/auth/tokens";
import { createCompaniesRepository } from "../features/companies/companies.repository";
import { createCompaniesModule } from "../features/companies/companies.module";
import { createPlansRepository } from "../features/plans/plans.repository";
import { createPlansModule } from "../features/plans/plans.module";
import { createQueuesRepository } from "../features/queues/queues.repository";
import { createQueueReads, createQueuesModule } from "../features/queues/queues.module";
import { createQuickMessagesModule } from "../features/quick-messages/quick-messages.module";
import { createSlaModule } from "../features/sla/sla.module";
import { createPromptsRepository } from "../features/prompts/prompts.repository";
import { createPromptLookup, createPromptsModule } from "../features/prompts/prompts.module";
import { createDialogflowTester } from "../features/queue-integrations/dialogflow-test-client";
import { createIntegrationSecrets } from "../features/queue-integrations/integration-secrets";
import { createDialogflowRest } from "../platform/dialogflow/dialogflow-rest.adapter";
import { createPublicUrlGuard } from "../platform/net/public-url-guard";
import { integrationEngineConfig, type StoredFlowIntegration } from "../features/bots/engines/integration-config";
import { createSecretBoxFromConfig } from "../platform/secrets/secret-box.factory";
import { createQueueIntegrationsRepository } from "../features/queue-integrations/queue-integrations.repository";
import { createIntegrationLookup, createQueueIntegrationsModule } from "../features/queue-integrations/queue-integrations.module";
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
import { createConnectionsRepository } from "../features/realtime/connections.repository";
import { createRealtimeModule, createSocketsModule } from "../features/realtime/realtime.module";
import { createSeedModule } from "../features/seed/seed.module";
import { createSettingsRepository } from "../features/settings/settings.repository";
import { createSettingsModule } from "../features/settings/settings.module";
import { createUsersRepository } from "../features/users/users.repository";
import { createUsersCleanup, createUsersModule } from "../features/users/users.module";
import { createWhatsappsRepository } from "../features/whatsapps/whatsapps.repository";
import { createNumberChecksRepository } from "../features/whatsapps/number-checks.repository";
import { createWhatsappsModule } from "../features/whatsapps/whatsapps.module";
import { createHelpsModule } from "../features/helps/helps.module";
import { createSessionHostsModule } from "../features/session-hosts/session-hosts.module";
import { createDashboardModule } from "../features/dashboard/dashboard.module";
import { createLogosModule } from "../features/logos/logos.module";
import { createPasswordResetRepository } from "../features/password-reset/password-reset.repository";
import { createPasswordResetModule } from "../features/password-reset/password-reset.module";
import { createQueueOptionsRepository } from "../features/queue-options/queue-options.repository";
import { createQueueOptionsModule } from "../features/queue-options/queue-options.module";
import { createSignupModule } from "../features/signup/signup.module";
import { createExternalApiModule } from "../features/external-api/external-api.module";
import { createFileMailer } from "../platform/mail/file-mail.adapter";
import type { Mailer } from "../platform/mail/mail.port";
import { createSesMailer } from "../platform/mail/ses-mail.adapter";
import { createFolderMediaStore } from "../platform/storage/folder-media-store.adapter";
import type { MediaStore } from "../platform/storage/media-store.port";
import { createS3MediaStore } from "../platform/storage/s3-media-store.adapter";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInboxModule } from "../features/inbox/inbox.module";
import { manualAssignment } from "../features/distribution/assignment-kind";
import { createSearchIndexing, createSearchModule } from "../features/search/search.module";
import { createSessionHostChannel } from "../platform/channels/session-host-channel.adapter";
import { createProviderChannels } from "../platform/channels/provider-channels";
import type { GraphFetch } from "../platform/channels/cloud-api/graph-api.client";
import { createCloudApiModule } from "../features/cloud-api/cloud-api.module";
import type { InboundQueue } from "../platform/queues/inbound-queue.port";
import { createSqsInboundQueue } from "../platform/queues/sqs-inbound.adapter";
import type { SecretBox } from "../platform/secrets/secret-box.port";
import { createBotIntake, createBotsModule } from "../features/bots/bots.module";
import type { PromptEngineFactory } from "../features/bots/bot-engines";
import { createInboxReads } from "./inbox-reads";
import { createJobQueue, createSocketSender } from "./ports";
import { spreadsheetsUnavailable, type SpreadsheetCodec } from "../platform/spreadsheets/spreadsheet.port";
import type { Config } from "../platform/config";
import { createDb, type Db } from "../platform/db/client";
import { requirePlan } from "../platform/http/middleware";
import { createLogger, type Logger } from "../platform/logger";
import { createMetrics, recordAssignment, type Metrics } from "../platform/metrics";
import type { CommandQueue } from "../platform/queues/commands.port";
import { createSqsCommandQueue } from "../platform/queues/sqs-commands.adapter";
import type { JobQueue } from "../platform/queues/jobs.port";
import type { SocketSender } from "../platform/realtime/sender.port";
import type { Guards } from "../platform/modules/feature-module";
import { createLgpdConsent, createLgpdModule } from "../features/lgpd/lgpd.module";
import { createReportsModule } from "../features/reports/reports.module";
import { COMPANY_SETTING_DEFAULTS, GLOBAL_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { createAudit, createAuditModule } from "../features/audit/audit.module";
import { createMfaRepository } from "../features/mfa/mfa.repository";
import { createMfaService } from "../features/mfa/mfa.service";
import { createAgentsRepository } from "../features/presence/agents.repository";
import { createAgentStatusService } from "../features/presence/agent-status.service";
import { createPresenceModule } from "../features/presence/presence.module";
import { createSocketPresenceListeners } from "../features/presence/socket-presence";
import { createDistributionRepository } from "../features/distribution/distribution.repository";
import { createDistributionTrigger } from "../features/distribution/distribution-trigger";
import { createDistributionModule } from "../features/distribution/distribution.module";

/** Ports a caller may replace (tests use in-memory adapters). */
export type Overrides = {
  sender?: SocketSender;
  clock?: () => Date;
  logger?: Logger;
  db?: Db;
  commands?: CommandQueue;
  jobs?: JobQueue;
  mailer?: Mailer;
  media?: MediaStore;
  metrics?: Metrics;
  /** inbound.fifo from the functions side (Cloud API webhook and sender) */
  inbound?: InboundQueue;
  secrets?: SecretBox;
  /** the Graph API's transport (tests: a stand-in) */
  graphFetch?: GraphFetch;
  /** the AI prompt bot engine (`openai`): only where bot turns run (the jobs Lambda; lambda-roles.ts, ADR 0038) */
  promptEngine?: PromptEngineFactory;
  /** SheetJS: only the Lambdas that read or write spreadsheets get it (handlers, lambda-roles.ts; ADR 0038) */
  spreadsheets?: SpreadsheetCodec;
};

/** Wires repositories, services and adapters once per process (Lambda cold start, local runner, test file). */
export const createContainer = (config: Config, overrides: Overrides = {}) => {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const clock = overrides.clock ?? (() => new Date());
  const metrics = overrides.metrics ?? createMetrics();
  const db = overrides.db ?? createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION, transport: config.DYNAMODB_TRANSPORT });
  const sender = createSocketSender(config, metrics, logger, overrides.sender);

  const commands: CommandQueue =
    overrides.commands ??
    (config.QUEUE_URL_OUTBOUND
      ? createSqsCommandQueue({ queueUrl: config.QUEUE_URL_OUTBOUND, region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT })
      : {
          send: async () => {
            throw new Error("QUEUE_URL_OUTBOUND is not configured");
          },
        });

  const jobs: JobQueue = createJobQueue(config, overrides.jobs);

  const inboundQueue: InboundQueue =
    overrides.inbound ??
    (config.QUEUE_URL_INBOUND
      ? createSqsInboundQueue({ queueUrl: config.QUEUE_URL_INBOUND, region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT })
      : {
          put: async () => {
            throw new Error("QUEUE_URL_INBOUND is not configured");
          },
        });
  // company secrets (prompt API keys, Cloud API tokens ...) are sealed before storage: KMS in AWS, a key file on one machine
  const secrets: SecretBox = overrides.secrets ?? createSecretBoxFromConfig(config);

  const mailer: Mailer =
    overrides.mailer ??
    (config.MAIL_DIR
      ? createFileMailer({ dir: config.MAIL_DIR, from: config.MAIL_FROM, logger, clock })
      : createSesMailer({ from: config.MAIL_FROM, region: config.AWS_REGION }));
  const media: MediaStore =
    overrides.media ??
    (config.MEDIA_BUCKET ? createS3MediaStore(config.MEDIA_BUCKET, config.AWS_REGION) : createFolderMediaStore(config.MEDIA_DIR ?? join(tmpdir(), "atende-media")));

  const spreadsheets = overrides.spreadsheets ?? spreadsheetsUnavailable;

  // --- repositories the composition root hands to their own feature (tests and the local runner read them too)
  const repos = {
    users: createUsersRepository(db),
    companies: createCompaniesRepository(db),
    plans: createPlansRepository(db),
    settings: createSettingsRepository(db),
    queues: createQueuesRepository(db),
    whatsapps: createWhatsappsRepository(db),
    numberChecks: createNumberChecksRepository(db),
    connections: createConnectionsRepository(db),
    throttle: createLoginThrottleRepository(db, config.LOGIN_WINDOW_SECONDS),
    queueOptions: createQueueOptionsRepository(db),
    passwordResets: createPasswordResetRepository(db),
    /** attendants' status and slot counters (docs/adr/0032) */
    agents: createAgentsRepository(db),
  };
  // DialogFlow over REST: Google's addresses, or the local stand-in's (config), for the test button and the bot engine
  const dialogflowRest = createDialogflowRest({ tokenUrl: config.DIALOGFLOW_TOKEN_URL, apiBase: config.DIALOGFLOW_API_BASE });
  const promptsRepo = createPromptsRepository(db);
  const integrationsRepo = createQueueIntegrationsRepository(db);
  const tokens = createTokens({
    accessSecret: config.JWT_SECRET,
    refreshSecret: config.JWT_REFRESH_SECRET,
    accessTtl: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtl: config.REFRESH_TOKEN_TTL_SECONDS,
  });
  const rounds = config.BCRYPT_ROUNDS;
  const settingValue = async (companyId: number | null, key: string, fallback: string) => (await repos.settings.get(companyId, key))?.value ?? fallback;

  // --- feature modules in dependency order (docs/adr/0024-feature-modules.md): each gets ports and the services
  // of modules built before it; nothing is registered later (no late-bound hooks)
  const realtimeModule = createRealtimeModule({ connections: repos.connections, sender, logger, clock });
  const realtime = realtimeModule.service;
  // the audit trail (docs/adr/0029): its recorder goes to every module that changes something; its routes come later
  const audit = createAudit({
    db,
    logger,
    clock,
    retentionDays: async () => Number(await settingValue(null, "auditRetentionDays", GLOBAL_SETTING_DEFAULTS.auditRetentionDays)),
  });
  // two-factor sign-in: required by the company (requireMfa) or by the operator for all (requireMfaAllCompanies)
  const mfa = createMfaService({
    mfa: createMfaRepository(db),
    secrets,
    throttle: repos.throttle,
    audit,
    logger,
    clock,
    maxAttempts: config.LOGIN_MAX_ATTEMPTS,
    isRequired: async (companyId) =>
      (await settingValue(null, "requireMfaAllCompanies", "disabled")) === "enabled" || (await settingValue(companyId, "requireMfa", "disabled")) === "enabled",
    issuer: "Atende",
  });
  // agent status and automatic distribution (docs/adr/0032): the trigger queues runs (jobs) on ticket changes and
  // when an attendant becomes available; the status service is built before auth (sign-out sets offline)
  const distributionRepo = createDistributionRepository(db);
  const distributionTrigger = createDistributionTrigger({ repo: distributionRepo, jobs });
  const defaultCapacity = async (companyId: number) => Number(await settingValue(companyId, "defaultCapacity", COMPANY_SETTING_DEFAULTS.defaultCapacity)) || 1;
  const agentUsers = {
    findById: async (companyId: number, id: number) => {
      const u = await repos.users.findById(companyId, id);
      return u ? { id: u.id, name: u.name, profile: u.profile, queueIds: u.queueIds } : null;
    },
    listByCompany: async (companyId: number) => (await repos.users.listByCompany(companyId)).map((u) => ({ id: u.id, name: u.name, profile: u.profile, queueIds: u.queueIds })),
  };
  const agentStatus = createAgentStatusService({
    agents: repos.agents,
    users: agentUsers,
    realtime,
    defaultCapacity,
    onAvailable: [(companyId, userId) => distributionTrigger.agentAvailable(companyId, userId)],
    hasLiveSocket: (companyId, userId) => repos.connections.hasLiveSocket(companyId, userId, clock()),
    clock,
  });
  const authModule = createAuthModule({
    onSignedOut: [(companyId, userId) => agentStatus.signedOut(companyId, userId)],
    ...repos,
    audit,
    mfa,
    realtime,
    tokens,
    logger,
    clock,
    maxAttempts: config.LOGIN_MAX_ATTEMPTS,
    cookie: { secure: config.COOKIE_SECURE, maxAgeSeconds: config.REFRESH_TOKEN_TTL_SECONDS },
  });
  const auth = authModule.service;
  // a company's deletion first removes its users' two-factor records, then its users (cascades passed at construction)
  const mfaCleanup = async (companyId: number) => {
    for (const user of await repos.users.listByCompany(companyId)) await mfa.removeFor(companyId, user.id);
  };
  const companiesModule = createCompaniesModule({
    audit,
    ...repos,
    repository: repos.companies,
    clock,
    onDeleted: [mfaCleanup, createUsersCleanup(repos.users)],
    guards: { auth: authModule.guard },
  });
  const companies = companiesModule.service;
  /** the route guards, built once: every routes factory gets this object */
  const guards: Guards = { auth: authModule.guard, plan: (flag) => requirePlan(companies.assertPlanAllows, flag) };
  const auditModule = createAuditModule({ service: audit, guards });
  const presenceModule = createPresenceModule({ service: agentStatus, guards });
  // the agent status follows the sockets (docs/adr/0044): the socket routes queue the checks, the 5-minute ping check too
  const socketPresence = createSocketPresenceListeners({ agents: repos.agents, jobs, graceSeconds: config.AGENT_OFFLINE_GRACE_SECONDS });
  const socketsModule = createSocketsModule({
    connections: repos.connections,
    users: repos.users,
    auth,
    realtime,
    jobs,
    sender,
    clock,
    logger,
    onConnected: [socketPresence.connected],
    onDisconnected: [socketPresence.disconnected],
    onUserOffline: [(companyId, userId) => agentStatus.socketsGone(companyId, userId)],
  });
  const seedModule = createSeedModule({ ...repos, clock, bcryptRounds: rounds });
  // a queue or a connection may only point at its own company's prompt and integration: reads passed at construction
  const references = { promptId: createPromptLookup(promptsRepo), integrationId: createIntegrationLookup(integrationsRepo) };
  // the official WhatsApp Cloud API (docs/adr/0028): built before the connections feature, which configures it
  const cloudApiModule = createCloudApiModule({
    db,
    config,
    secrets,
    media,
    inbound: inboundQueue,
    jobs,
    clock,
    logger,
    fetch: overrides.graphFetch,
    metrics,
    guards,
    // the inbox is built later (it takes the Cloud API channel); read only when a request comes
    ticketOf: (companyId, ticketId) => inboxModule.service.ticketChannel(companyId, ticketId),
    providerOf: async (companyId, whatsappId) => (await repos.whatsapps.findById(companyId, whatsappId))?.provider ?? null,
  });
  const whatsappsModule = createWhatsappsModule({
    audit,
    cloudApi: cloudApiModule.service,
    ...repos,
    repository: repos.whatsapps,
    companiesService: companies,
    realtime,
    commands,
    clock,
    logger,
    channel: config.WHATSAPP_CHANNEL,
    references,
    guards,
  });
  const whatsapps = whatsappsModule.service;
  // administration (docs/adr/0006-admin.md)
  const settingsModule = createSettingsModule({ audit, repository: repos.settings, realtime, clock, guards });
  const plansModule = createPlansModule({ audit, repository: repos.plans, companies: repos.companies, clock, guards });
  // queue-options and prompts lose their part when a queue goes: built before queues, they read queues through the
  // same reads the queues service answers with, and the queues service gets their cascades at construction
  const queueReads = createQueueReads(repos.queues);
  const queueOptionsModule = createQueueOptionsModule({ repository: repos.queueOptions, queues: queueReads, media, clock, guards });
  // AI prompts and queue integrations (spec 3); a queue may only point at its own company's
  // company secrets (prompt API keys ...) are sealed before storage: KMS in AWS, a key file on one machine
  const integrationSecrets = createIntegrationSecrets(secrets);
  // bots (docs/adr/0026-bot-runner.md), step 1: which bot a ticket has and queueing its turns, built from reads before
  // the inbox, which gets `onCustomerMessage` at construction; the runner itself comes after the inbox
  // one guard for every call to an address an admin typed: the flows and the media they answer with
  const urlGuard = createPublicUrlGuard({ allowPrivate: config.BOT_ALLOW_PRIVATE_URLS });
  const botIntake = createBotIntake({
    db,
    jobs,
    secrets,
    clock,
    logger,
    queue: (companyId, id) => queueReads.findById(companyId, id),
    connection: (companyId, id) => repos.whatsapps.findById(companyId, id),
    prompt: (companyId, id) => promptsRepo.findById(companyId, id),
    integration: (companyId, id) => integrationsRepo.findById(companyId, id),
    // the flow kinds (docs/adr/0027): integrations with their secrets opened, DialogFlow over REST, the URL guard
    integrationConfig: (i) => integrationEngineConfig(i as StoredFlowIntegration, (stored) => integrationSecrets.open(stored)),
    flows: { dialogflow: dialogflowRest, guard: urlGuard },
    speechBaseUrl: config.AZURE_SPEECH_BASE_URL,
    timeoutMs: config.BOT_TIMEOUT_MS,
    promptEngine: overrides.promptEngine,
    metrics,
  });
  const promptsModule = createPromptsModule({ audit, repository: promptsRepo, queues: queueReads, whatsapps, realtime, clock, secrets, tokens: botIntake.usage, guards });
  const queueIntegrationsModule = createQueueIntegrationsModule({ audit,
    db,
    repository: integrationsRepo,
    queues: queueReads,
    whatsapps,
    dialogflow: createDialogflowTester(dialogflowRest),
    secrets: integrationSecrets,
    realtime,
    clock,
    guards,
  });
  const queuesModule = createQueuesModule({ audit,
    repository: repos.queues,
    companies,
    realtime,
    media,
    clock,
    references,
    onDeleted: [(q) => queueOptionsModule.service.removeByQueue(q.companyId, q.id), (q) => promptsModule.service.detachQueue(q.companyId, q.id)],
    guards,
  });
  const usersModule = createUsersModule({ audit, onDeleted: [(companyId, userId) => mfa.removeFor(companyId, userId)], repository: repos.users, queues: queuesModule.service, companies, whatsapps: repos.whatsapps, realtime, clock, bcryptRounds: rounds, guards });
  const helpsModule = createHelpsModule({ db, clock, guards });
  const sessionHostsModule = createSessionHostsModule({ db, clock, guards });
  const logosModule = createLogosModule({ media, settings: repos.settings, settingsService: settingsModule.service, clock, guards });
  const signupModule = createSignupModule({ db, companies, plans: plansModule.service, settings: settingsModule.service, users: repos.users, logger, clock, bcryptRounds: rounds });
  const passwordResetModule = createPasswordResetModule({
    resets: repos.passwordResets,
    users: repos.users,
    mailer,
    logger,
    clock,
    secret: config.JWT_REFRESH_SECRET,
    bcryptRounds: rounds,
    realtime,
  });
  // LGPD consent reads (docs/adr/0030), built before the inbox, external API and campaigns that ask them
  const consent = createLgpdConsent(db, config);
  // SLA (issue 13, docs/adr/0033): the company's holidays and the planner of the cycles' clocks, before the inbox
  const inboxReads = createInboxReads(repos);
  const slaModule = createSlaModule({
    db,
    reads: {
      company: (companyId) => repos.companies.findById(companyId),
      queue: (companyId, id) => repos.queues.findById(companyId, id),
      setting: async (companyId, key) => (await inboxReads.settings.list(companyId)).find((s) => s.key === key)?.value,
    },
    realtime,
    clock,
    guards,
    ttlMs: config.INBOX_DIRECTORY_TTL_MS,
  });
  // full-text search, step 1 (docs/adr/0035): the index and its writer, told by the inbox of every message and contact
  const searchIndexing = createSearchIndexing({ db, logger });
  // the inbox: one module, one facade (docs/adr/0023-inbox-feature.md); it reads other features through inbox-reads
  const inboxModule = createInboxModule({ audit,
    urlGuard,
    db,
    reads: inboxReads,
    realtime,
    // the channel registry: one adapter per provider kind; QR sessions (Baileys, simulator) are the only kind today
    channels: createProviderChannels({ "session-host": createSessionHostChannel(commands), "cloud-api": cloudApiModule.channel }, async (companyId, whatsappId) =>
      (await cloudApiModule.service.isCloudApi(companyId, whatsappId)) ? "cloud-api" : "session-host",
    ),
    commands,
    jobs,
    media,
    spreadsheets,
    clock,
    logger,
    guards,
    channelRules: cloudApiModule.service,
    directoryTtlMs: config.INBOX_DIRECTORY_TTL_MS,
    pageTokenSecret: config.JWT_SECRET,
    erasedAmong: consent.erasedAmong,
    customerMessageHandlers: [(ticket, message) => botIntake.onCustomerMessage(ticket, message)],
    listeners: { onMessage: [searchIndexing.indexer.message], onContact: [searchIndexing.indexer.contact] },
    historySearch: searchIndexing.historySearch,
    slots: repos.agents,
    ticketListeners: [
      (before, after) => distributionTrigger.ticketChanged(before, after),
      // the Assignments metric of person-made assignments (automatic ones are counted by distribution)
      async (before, after, change) => {
        const mode = manualAssignment(before, after, change.byUserId);
        if (mode) recordAssignment(metrics, mode);
      },
    ],
    sla: slaModule.planner,
  });
  const inbox = inboxModule.service;
  // full-text search, step 2: its routes read the inbox's search reads
  const searchModule = createSearchModule({
    indexing: searchIndexing,
    inbox,
    companyIds: async () => {
      const ids: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await repos.companies.listPage(100, cursor);
        ids.push(...page.items.map((c) => c.id));
        cursor = page.cursor;
      } while (cursor);
      return ids;
    },
    guards,
    logger,
  });
  const distributionModule = createDistributionModule({
    repo: distributionRepo,
    agents: repos.agents,
    users: agentUsers,
    inbox,
    queueExists: async (companyId, queueId) => (await repos.queues.findById(companyId, queueId)) !== null,
    defaultCapacity,
    trigger: distributionTrigger,
    metrics,
    logger,
    clock,
    guards,
  });
  // bots, step 2: the runner, with the inbox's bot facade (its `bots.turn` job)
  const botsModule = createBotsModule({ intake: botIntake, inbox: inbox.bots });
  const dashboardModule = createDashboardModule({
    cycles: inbox,
    users: usersModule.service,
    companies,
    clock,
    sessions: {
      // operator card: connected sessions across the given companies (operator call, one query per company)
      countConnected: async (ids) =>
        (await Promise.all(ids.map((id) => repos.whatsapps.listByCompany(id)))).flat().filter((w) => w.status === "CONNECTED").length,
    },
    guards,
  });
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
  });
  const fileListsModule = createFileListsModule({ db, realtime, media, clock, guards });
  const externalApiModule = createExternalApiModule({
    db,
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
  const chatsModule = createChatsModule({ db, users: usersModule.service, realtime, clock, guards });

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

  /**
   * The modules, in the order their routes are mounted (http-app.ts): the same paths in the same order as before.
   * Inbound handlers of one event type run in this order too: the inbox's before campaigns'.
   */
  const modules = {
    beforeInbox: [authModule, signupModule, companiesModule, logosModule, passwordResetModule, queuesModule, whatsappsModule, queueOptionsModule, usersModule, settingsModule, plansModule, helpsModule, sessionHostsModule, dashboardModule],
    // POST /messages/send (connection token), before the inbox's /messages
    inboxPrefix: [externalApiModule, lgpdModule.contactRoutes],
    inbox: [inboxModule],
    afterInbox: [
      quickMessagesModule,
      promptsModule,
      queueIntegrationsModule,
      announcementsModule,
      fileListsModule,
      schedulesModule,
      chatsModule,
      contactListsModule,
      campaignSettingsModule,
      campaignsModule,
      lgpdModule,
      reportsModule,
      invoicesModule,
      subscriptionModule,
      auditModule,
      cloudApiModule,
      slaModule,
      searchModule,
      presenceModule,
      distributionModule,
    ],
    /** contribute inbound handlers, jobs and tick jobs only */
    background: [realtimeModule, socketsModule, seedModule, botsModule],
  };

  return {
    config,
    logger,
    metrics,
    clock,
    db,
    commands,
    jobs,
    repos,
    tokens,
    mailer,
    media,
    payments,
    fakeBank,
    secrets,
    dialogflowRest,
    guards,
    modules,
    /** the Cloud API feature: the consumer step (inbound-consumer.ts), its webhook and service (tests, local runner) */
    cloudApi: cloudApiModule,
    inboundQueue,
    services: {
      audit,
      mfa,
      contactLists,
      campaignSettings: campaignSettingsModule.service,
      invoices: invoicesModule.service,
      invoicesJob: invoicesModule.job,
      subscription: subscriptionModule.service,
      auth,
      companies,
      realtime,
      presence: socketsModule.service.presence,
      sockets: socketsModule.service.sockets,
      seed: seedModule.service,
      whatsapps,
      settings: settingsModule.service,
      plans: plansModule.service,
      queues: queuesModule.service,
      queueOptions: queueOptionsModule.service,
      users: usersModule.service,
      helps: helpsModule.service,
      logos: logosModule.service,
      signup: signupModule.service,
      passwordReset: passwordResetModule.service,
      ...inboxModule.parts,
      inbox,
      dashboard: dashboardModule.service,
      quickMessages: quickMessagesModule.service,
      schedules: schedulesModule.service,
      schedulesJob: schedulesModule.job,
      campaigns: campaignsModule.service,
      campaignDispatch: campaignsModule.dispatch,
      chats: chatsModule.service,
      prompts: promptsModule.service,
      bots: botsModule.service,
      queueIntegrations: queueIntegrationsModule.service,
      announcements: announcementsModule.service,
      fileLists: fileListsModule.service,
      externalApi: externalApiModule.service,
      lgpd: lgpdModule.service.lgpd,
      agentStatus,
      distribution: distributionModule.service,
      optOuts: lgpdModule.service.optOuts,
      reports: reportsModule.service,
      search: searchModule.service,
      /** indexes a company's whole history (docs/adr/0035; the demo seed and `npm run search:backfill`) */
      searchBackfill: searchModule.backfill,
      searchBackfillPlatformOnce: searchModule.backfillPlatformOnce,
    },
  };
};
export type Container = ReturnType<typeof createContainer>;
