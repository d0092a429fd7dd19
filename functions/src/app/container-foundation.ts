import { createSignInLimits } from "../features/auth/sign-in-limits";
import { createAttemptLimiter } from "../platform/limits/attempt-limiter";
import { createAuthModule } from "../features/auth/auth.module";
import { createTokens } from "../features/auth/tokens";
import { createCompaniesRepository } from "../features/companies/companies.repository";
import { createCompaniesModule } from "../features/companies/companies.module";
import { createPlansRepository } from "../features/plans/plans.repository";
import { createQueuesRepository } from "../features/queues/queues.repository";
import { createPromptsRepository } from "../features/prompts/prompts.repository";
import { createDialogflowRest } from "../platform/dialogflow/dialogflow-rest.adapter";
import { createQueueIntegrationsRepository } from "../features/queue-integrations/queue-integrations.repository";
import { createConnectionsRepository } from "../features/realtime/connections.repository";
import { createRealtimeModule, createSocketsModule } from "../features/realtime/realtime.module";
import { createSeedModule } from "../features/seed/seed.module";
import { createSettingsRepository } from "../features/settings/settings.repository";
import { createUsersRepository } from "../features/users/users.repository";
import { createUsersCleanup } from "../features/users/users.module";
import { createUserView } from "../features/users/user-view";
import { createWhatsappsRepository } from "../features/whatsapps/whatsapps.repository";
import { createNumberChecksRepository } from "../features/whatsapps/number-checks.repository";
import { createPasswordResetRepository } from "../features/password-reset/password-reset.repository";
import { createQueueOptionsRepository } from "../features/queue-options/queue-options.repository";
import { requirePlan } from "../platform/http/middleware";
import type { Guards } from "../platform/modules/feature-module";
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
import type { Base } from "./container-adapters";

/** Stage 2 of the composition: the repositories the root hands out, realtime, audit, two-factor, agent status, sign-in, companies and the route guards. */
export const composeFoundation = (deps: Base) => {
  const { config, logger, clock, db, sender, jobs, secrets, outbound } = deps;
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
    /** sign-in, two-factor, reset codes, sign-up, external API: slots taken before the check (docs/adr/0064) */
    limiter: createAttemptLimiter(db, clock),
    queueOptions: createQueueOptionsRepository(db),
    passwordResets: createPasswordResetRepository(db),
    /** attendants' status and slot counters (docs/adr/0032) */
    agents: createAgentsRepository(db),
  };
  // DialogFlow over REST: Google's addresses, or the local stand-in's (config), for the test button and the bot engine
  const dialogflowRest = createDialogflowRest({ tokenUrl: config.DIALOGFLOW_TOKEN_URL, apiBase: config.DIALOGFLOW_API_BASE, fetch: outbound.fetch });
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
  const signInLimits = createSignInLimits(repos.limiter, {
    perAccount: { limit: config.LOGIN_MAX_ATTEMPTS, windowSeconds: config.LOGIN_WINDOW_SECONDS },
    perAddress: { limit: config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS, windowSeconds: config.LOGIN_WINDOW_SECONDS },
  });
  // two-factor sign-in: required by the company (requireMfa) or by the operator for all (requireMfaAllCompanies)
  const mfa = createMfaService({
    mfa: createMfaRepository(db),
    secrets,
    limits: signInLimits,
    audit,
    logger,
    clock,
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
    limits: signInLimits,
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
    // presence announces the whole user, as GET /users/{id} answers it (ADR 0068)
    userView: createUserView({ users: repos.users, queues: repos.queues, whatsapps: repos.whatsapps }),
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
  return { repos, dialogflowRest, promptsRepo, integrationsRepo, tokens, rounds, settingValue, realtimeModule, realtime, audit, mfa, distributionRepo, distributionTrigger, defaultCapacity, agentUsers, agentStatus, authModule, auth, mfaCleanup, companiesModule, companies, guards, auditModule, presenceModule, socketPresence, socketsModule, seedModule };
};
export type Foundation = ReturnType<typeof composeFoundation>;
