import { createPlansModule } from "../features/plans/plans.module";
import { createQueueReads, createQueuesModule } from "../features/queues/queues.module";
import { createPromptLookup, createPromptsModule } from "../features/prompts/prompts.module";
import { createDialogflowTester } from "../features/queue-integrations/dialogflow-test-client";
import { createIntegrationSecrets } from "../features/queue-integrations/integration-secrets";
import { integrationEngineConfig, type StoredFlowIntegration } from "../features/bots/engines/integration-config";
import { createIntegrationLookup, createQueueIntegrationsModule } from "../features/queue-integrations/queue-integrations.module";
import { createSettingsModule } from "../features/settings/settings.module";
import { createUsersModule } from "../features/users/users.module";
import { createWhatsappsModule } from "../features/whatsapps/whatsapps.module";
import { createHelpsModule } from "../features/helps/helps.module";
import { createSessionHostsModule } from "../features/session-hosts/session-hosts.module";
import { createLogosModule } from "../features/logos/logos.module";
import { createPasswordResetModule } from "../features/password-reset/password-reset.module";
import { createQueueOptionsModule } from "../features/queue-options/queue-options.module";
import { createSignupModule } from "../features/signup/signup.module";
import { createCloudApiModule } from "../features/channels/cloud-api/cloud-api.module";
import { createBotIntake } from "../features/bots/bots.module";
import { promptConfig } from "../features/bots/bot-resolver";
import { createFlowLookup, createFlowsModule } from "../features/flows/flows.module";
import { createFlowsRepository } from "../features/flows/flows.repository";
import { createFileListsRepository } from "../features/files/file-lists.repository";
import { createBusinessHours, createFlowHttp } from "../features/flows/flow-outside";
import { createFlowBinding, createFlowsInUse, createFlowStart } from "../features/flows/flow-binding";
import { createFlowEngine } from "../features/flows/flow.engine";
import { createBotStarter, createBotTurnsRepository } from "../features/bots/bot-turns.repository";
import type { Base } from "./container-adapters";
import type { Foundation } from "./container-foundation";
import type { InboxModule } from "../features/inbox/inbox.module";
import type { CopilotService } from "../features/copilot/copilot.service";
import { createMetaModule, metaChannelFeatures } from "../features/channels/meta/meta.module";
import { channelRegistries, type ChannelFeature } from "../features/channels/channel-feature";
import { createWebchatModule } from "../features/channels/webchat/webchat.module";
import { createTelegramModule } from "../features/channels/telegram/telegram.module";

/** What an earlier stage reads of a later one only when a request comes (the Cloud API's tickets, from the inbox). */
export type LateBound = { inbox?: InboxModule; copilot?: CopilotService };

/** Stage 3 of the composition: connections (the Cloud API channel first), settings, plans, queues and their options, prompts, integrations, the bots' intake, users and the public sign-up and password pages. */
export const composeAdministration = (deps: Base & Foundation & { late: LateBound }) => {
  const { config, overrides, logger, clock, metrics, db, commands, jobs, inboundQueue, secrets, mailer, media, outbound, repos, dialogflowRest, promptsRepo, integrationsRepo, rounds, realtime, audit, mfa, companies, guards, late } = deps;
  // a queue or a connection may only point at its own company's prompt and integration: reads passed at construction
  const flowsRepo = createFlowsRepository(db);
  const flowsInUse = createFlowsInUse({ list: (companyId) => flowsRepo.listByCompany(companyId), clock });
  const references = { promptId: createPromptLookup(promptsRepo), integrationId: createIntegrationLookup(integrationsRepo), flowId: createFlowLookup(flowsRepo) };
  // Messenger and Instagram Direct (docs/adr/0090): the signed webhook, the consumer step and the Send API jobs
  const metaModule = createMetaModule({ db, config, secrets, media, inbound: inboundQueue, jobs, clock, logger, metrics, fetch: overrides.graphFetch ?? outbound.fetch, checkUrl: outbound.checkSavedUrl });
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
    fetch: overrides.graphFetch ?? outbound.fetch,
    checkUrl: outbound.checkSavedUrl,
    metrics,
    guards,
    // the inbox is built later (it takes the Cloud API channel); read only when a request comes
    ticketOf: (companyId, ticketId) => late.inbox!.service.ticketChannel(companyId, ticketId),
    providerOf: async (companyId, whatsappId) => (await repos.whatsapps.findById(companyId, whatsappId))?.provider ?? null,
    otherWindow: (companyId, whatsappId, chatJid) => metaModule.service.replyWindowOf(companyId, whatsappId, chatJid),
  });
  // the channels beyond WhatsApp (docs/adr/0088): one entry per channel; each brings its connections part, its
  // adapter behind the channel port and its module (webhook, routes)
  const telegramModule = createTelegramModule({
    db,
    config,
    secrets,
    media,
    inbound: inboundQueue,
    clock,
    logger,
    metrics,
    fetch: overrides.telegramFetch ?? outbound.fetch,
    checkUrl: outbound.checkSavedUrl,
    jobs,
  });
  // the website chat (docs/adr/0092): the visitor reads their own conversation from the inbox, built later
  const webchatModule = createWebchatModule({
    db,
    metrics,
    inbound: inboundQueue,
    media,
    limiter: repos.limiter,
    clock,
    sender: deps.sender,
    logger,
    conversation: (companyId, jid, limit) => late.inbox!.conversationOf(companyId, jid, limit),
  });
  const channelFeatures: ChannelFeature[] = [telegramModule, ...metaChannelFeatures(metaModule), webchatModule.feature];
  const channelRegistry = channelRegistries(channelFeatures);
  const whatsappsModule = createWhatsappsModule({
    audit,
    cloudApi: cloudApiModule.service,
    channels: channelRegistry.connections,
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
  // the outbound guard's early URL check (the flows and the media they answer with); their calls use outbound.fetch
  const urlGuard = outbound.guard;
  // flows (issue 30, docs/adr/0083) run as a bot kind: the ticket's flow is asked first, the engine reads immutable versions
  const businessHours = createBusinessHours((companyId) => repos.companies.findById(companyId), clock);
  const flowHttp = createFlowHttp(outbound.fetch);
  const fileListsRepo = createFileListsRepository(db);
  const flowEngine = createFlowEngine({
    flows: flowsRepo,
    http: flowHttp,
    inBusinessHours: businessHours,
    clock,
    logger,
    // a `media` node's file list: its options' stored files (the list item is the company's own: CO#<c>)
    files: async (companyId, fileListId) =>
      ((await fileListsRepo.findById(companyId, fileListId))?.options ?? []).flatMap((o) => (o.path ? [{ key: o.path, name: o.mediaName ?? o.name }] : [])),
    // an `ai` node: the company's AI prompt through the prompt engine (bound below; runs where bot turns run)
    ai: async (companyId, promptId, input) => {
      const stored = await promptsRepo.findById(companyId, promptId);
      if (!stored) throw new Error(`prompt ${promptId} not found`);
      // the flow's turns read the conversation on demand (BotBinding.historyOnDemand): this node reads it
      const history = input.loadHistory ? await input.loadHistory() : input.history;
      const out = await botIntake.engines.prompt!.turn(await promptConfig(secrets, stored), { ...input, history, state: null });
      return {
        messages: out.messages.flatMap((m) => (m.kind === "text" ? [m.body] : [])),
        outcome: out.actions.some((a) => a.type === "handover") ? "handover" : out.actions.some((a) => a.type === "close") ? "done" : "continue",
      };
    },
  });
  const botItems = createBotTurnsRepository(db);
  const flowBinding = createFlowBinding({
    any: (companyId) => flowsInUse.any(companyId),
    connection: (companyId, id) => repos.whatsapps.findById(companyId, id),
    queue: (companyId, id) => queueReads.findById(companyId, id),
    item: (companyId, ticketId) => botItems.get(companyId, ticketId),
  });
  const startFlow = createFlowStart({ flows: flowsRepo, queue: (companyId, id) => queueReads.findById(companyId, id), startBot: createBotStarter(db), clock });
  const flowStart: typeof startFlow = async (t, wa, body) => {
    // a company without a published flow has no flow to start and no keyword to read (one read saved per conversation)
    if (!wa.flowId && !(await flowsInUse.any(t.companyId))) return false;
    const started = await startFlow(t, wa, body);
    if (started) flowsInUse.published(t.companyId);
    return started;
  };
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
    flows: { dialogflow: dialogflowRest, guard: urlGuard, fetch: outbound.fetch },
    speechBaseUrl: config.AZURE_SPEECH_BASE_URL,
    timeoutMs: config.BOT_TIMEOUT_MS,
    promptEngine: overrides.promptEngine,
    metrics,
    flow: flowBinding,
    flowEngine: flowEngine as never,
  });
  const promptsModule = createPromptsModule({ audit, repository: promptsRepo, queues: queueReads, whatsapps, realtime, clock, secrets, tokens: botIntake.usage, guards, checkUrl: outbound.checkSavedUrl });
  const queueIntegrationsModule = createQueueIntegrationsModule({ audit,
    db,
    repository: integrationsRepo,
    queues: queueReads,
    whatsapps,
    dialogflow: createDialogflowTester(dialogflowRest),
    checkUrl: outbound.checkSavedUrl,
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
  // flows: who points at a flow, and the outside calls of the page's test run
  const flowsModule = createFlowsModule({
    repository: flowsRepo,
    media,
    clock,
    guards,
    users: async (companyId, flowId) => ({
      whatsappIds: (await repos.whatsapps.listByCompany(companyId)).filter((w) => w.flowId === flowId).map((w) => w.id),
      queueIds: (await queueReads.listByCompany(companyId)).filter((q) => q.flowId === flowId).map((q) => q.id),
    }),
    test: (companyId) => ({ http: flowHttp, inBusinessHours: businessHours(companyId) }),
    // a company's first published flow is known to this instance's bindings at once (flow-binding.ts, createFlowsInUse)
    onPublished: (companyId) => flowsInUse.published(companyId),
  });
  const usersModule = createUsersModule({ audit, onDeleted: [(companyId, userId) => mfa.removeFor(companyId, userId)], repository: repos.users, queues: queuesModule.service, companies, whatsapps: repos.whatsapps, realtime, clock, bcryptRounds: rounds, guards });
  const helpsModule = createHelpsModule({ db, clock, guards });
  const sessionHostsModule = createSessionHostsModule({ db, clock, guards });
  const logosModule = createLogosModule({ media, settings: repos.settings, settingsService: settingsModule.service, clock, guards });
  const signupModule = createSignupModule({ limiter: repos.limiter, companies, plans: plansModule.service, settings: settingsModule.service, users: repos.users, logger, clock, bcryptRounds: rounds });
  const passwordResetModule = createPasswordResetModule({
    resets: repos.passwordResets,
    limiter: repos.limiter,
    users: repos.users,
    mailer,
    logger,
    clock,
    secret: config.JWT_REFRESH_SECRET,
    bcryptRounds: rounds,
    realtime,
  });
  return { flowsRepo, flowsInUse, flowsModule, flowEngine, flowStart, references, cloudApiModule, metaModule, telegramModule, webchatModule, channelFeatures, channelRegistry, whatsappsModule, whatsapps, settingsModule, plansModule, queueReads, queueOptionsModule, integrationSecrets, urlGuard, botIntake, promptsModule, queueIntegrationsModule, queuesModule, usersModule, helpsModule, sessionHostsModule, logosModule, signupModule, passwordResetModule };
};
export type Administration = ReturnType<typeof composeAdministration>;
