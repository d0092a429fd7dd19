import { createAdapters, type Overrides } from "./container-adapters";
import { composeFoundation } from "./container-foundation";
import { composeAdministration, type LateBound } from "./container-administration";
import { composeInbox } from "./container-inbox";
import { composeBusiness } from "./container-business";
import { composeCopilot } from "./container-copilot";
import type { Config } from "../platform/config";

export type { Overrides } from "./container-adapters";
/** Wires repositories, services and adapters once per process (Lambda cold start, local runner, test file). */
export const createContainer = (config: Config, overrides: Overrides = {}) => {
  // the stages in dependency order (docs/adr/0024-feature-modules.md): each gets ports and the services of the
  // stages built before it; nothing is registered later (no late-bound hooks but `late`, read on requests only)
  const base = { config, overrides, ...createAdapters(config, overrides) };
  const late: LateBound = {};
  const foundation = composeFoundation(base);
  const administration = composeAdministration({ ...base, ...foundation, late });
  const inboxStage = composeInbox({ ...base, ...foundation, ...administration, late });
  late.inbox = inboxStage.inboxModule;
  const business = composeBusiness({ ...base, ...foundation, ...administration, ...inboxStage });
  const { copilotModule } = composeCopilot({ ...base, ...foundation, ...administration, ...inboxStage, ...business });
  late.copilot = copilotModule.service;
  const { logger, clock, metrics, db, commands, jobs, inboundQueue, secrets, mailer, media, outbound, repos, dialogflowRest, tokens, realtimeModule, realtime, audit, mfa, agentStatus, authModule, auth, companiesModule, companies, guards, auditModule, presenceModule, socketsModule, seedModule, flowsInUse, cloudApiModule, metaModule, telegramModule, webchatModule, channelFeatures, whatsappsModule, whatsapps, settingsModule, plansModule, queueOptionsModule, promptsModule, queueIntegrationsModule, flowsModule, queuesModule, usersModule, helpsModule, sessionHostsModule, logosModule, signupModule, passwordResetModule, slaModule, inboxModule, inbox, searchModule, distributionModule, botsModule, dashboardModule, supervisorModule, quickMessagesModule, announcementsModule, fileListsModule, externalApiModule, chatsModule, schedulesModule, fakeBank, payments, invoicesModule, subscriptionModule, contactListsModule, contactLists, campaignSettingsModule, campaignsModule, lgpdModule, reportsModule, pushModule } = { ...base, ...foundation, ...administration, ...inboxStage, ...business };

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
      flowsModule,
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
      ...channelFeatures.map((f) => f.module),
      slaModule,
      searchModule,
      presenceModule,
      distributionModule,
      supervisorModule,
      pushModule,
      copilotModule,
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
    /** the outbound guard (docs/adr/0062): push endpoints, the copilot and a flow's HTTP node call through outbound.fetch */
    outbound,
    guards,
    modules,
    /** whether a company has a published flow, remembered per instance (features/flows/flow-binding.ts) */
    flowsInUse,
    /** the Cloud API feature: the consumer step (inbound-consumer.ts), its webhook and service (tests, local runner) */
    cloudApi: cloudApiModule,
    /** Messenger / Instagram (docs/adr/0090): the consumer step, the webhook and the settings (tests, local runner) */
    meta: metaModule,
    /** the Telegram channel (docs/adr/0088): its webhook and service (tests, local runner) */
    telegram: telegramModule,
    /** the website chat (docs/adr/0092): its settings (configure) and visitor API */
    webchat: webchatModule,
    inboundQueue,
    /** Web Push (docs/adr/0097): `push.notifyUsers(companyId, userIds, notification)` for any feature; the API's service */
    push: pushModule.service,
    services: {
      copilot: copilotModule.service,
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
      /** the website chat visitors' sockets (docs/adr/0096) */
      webchatSockets: webchatModule.sockets,
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