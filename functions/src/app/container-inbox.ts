import type { ChannelKind } from "../platform/channels/channel.port";
import { createSlaModule } from "../features/sla/sla.module";
import { createDashboardModule } from "../features/dashboard/dashboard.module";
import { createSupervisorBoard, createSupervisorModule } from "../features/supervisor/supervisor.module";
import { createInboxModule } from "../features/inbox/inbox.module";
import { manualAssignment } from "../features/distribution/assignment-kind";
import { createSearchIndexing, createSearchModule } from "../features/search/search.module";
import { createSessionHostChannel } from "../platform/channels/session-host-channel.adapter";
import { createProviderChannels, providerKind } from "../platform/channels/provider-channels";
import { createBotsModule } from "../features/bots/bots.module";
import { createInboxReads } from "./inbox-reads";
import { recordAssignment } from "../platform/metrics";
import { createLgpdConsent } from "../features/lgpd/lgpd.module";
import { createDistributionModule } from "../features/distribution/distribution.module";
import { createPushModule, vapidKeysOf } from "../features/push/push.module";
import type { Base } from "./container-adapters";
import type { Foundation } from "./container-foundation";
import type { Administration, LateBound } from "./container-administration";

/** Stage 4 of the composition: the inbox (with SLA, LGPD consent and search indexing before it) and what reads it first: search, distribution, the bot runner, the dashboard. */
export const composeInbox = (deps: Base & Foundation & Administration & { late: LateBound }) => {
  const { config, logger, clock, metrics, db, commands, jobs, media, spreadsheets, repos, realtime, audit, distributionRepo, distributionTrigger, defaultCapacity, agentUsers, companies, guards, cloudApiModule, metaModule, channelFeatures, channelRegistry, urlGuard, botIntake, flowStart, usersModule, outbound } = deps;
  // Web Push (issue 32, docs/adr/0097): built before the inbox, whose committed changes and messages its rules hear
  // the contact's name, read by the push jobs through the inbox built below (never during composition)
  const pushLate: { contactsByIds?: (companyId: number, ids: number[]) => Promise<{ name: string }[]> } = {};
  const pushModule = createPushModule({
    db,
    guards,
    outbound,
    jobs,
    keys: vapidKeysOf(config),
    subject: config.VAPID_SUBJECT,
    users: async (companyId) => (await repos.users.listByCompany(companyId)).map((u) => ({ id: u.id, profile: u.profile, queueIds: u.queueIds, allTicket: u.allTicket })),
    agentStatus: async (companyId, userId) => (await repos.agents.get(companyId, userId)).status,
    watching: async (companyId, userId, room) => (await repos.connections.listByCompany(companyId)).some((c) => c.userId === userId && c.rooms.includes(room)),
    contactName: async (companyId, contactId) => (await pushLate.contactsByIds?.(companyId, [contactId]))?.[0]?.name ?? null,
    company: async (companyId) => {
      const [company, previews] = await Promise.all([repos.companies.findById(companyId), repos.settings.get(companyId, "pushPreviews")]);
      return { timezone: company?.timezone ?? "America/Sao_Paulo", previews: previews?.value === "enabled" };
    },
    metrics,
    logger,
    clock,
  });
  /**
   * A connection's channel kind, remembered for 30 s like the Cloud API's settings: every outbound command asks it,
   * and a provider changes only when an admin edits the connection (the messages' own path reads nothing for it).
   */
  const kinds = new Map<string, { at: number; kind: ChannelKind }>();
  const kindOfConnection = async (companyId: number, whatsappId: number): Promise<ChannelKind> => {
    const k = `${companyId}:${whatsappId}`;
    const hit = kinds.get(k);
    if (hit && clock().getTime() - hit.at < 30_000) return hit.kind;
    const kind = providerKind((await repos.whatsapps.findById(companyId, whatsappId))?.provider);
    if (kinds.size > 10_000) kinds.clear();
    kinds.set(k, { at: clock().getTime(), kind });
    return kind;
  };
  /** Messenger / Instagram connections only ask Meta's rules (its settings read is not paid by every other reply) */
  const isMeta = async (companyId: number, whatsappId: number) => {
    if (!channelFeatures.length) return false;
    const kind = await kindOfConnection(companyId, whatsappId);
    return kind === "messenger" || kind === "instagram";
  };
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
  const supervisorBoard = createSupervisorBoard(db);
  const inboxModule = createInboxModule({ audit,
    // a whisper's push to the attendant (issue 34 over issue 32): after the whisper is stored, through the jobs queue
    whisperPush: (n) => pushModule.rules.whisper(n.companyId, n.ticket, n.from, n.body),
    urlGuard,
    outboundFetch: outbound.fetch,
    db,
    reads: inboxReads,
    realtime,
    // the channel registry: one adapter per provider kind; QR sessions (Baileys, simulator) are the only kind today
    channels: createProviderChannels(
      { "session-host": createSessionHostChannel(commands), "cloud-api": cloudApiModule.channel, ...channelRegistry.adapters },
      async (companyId, whatsappId) => {
        // side by side: one round trip for both (each is remembered for 30 s)
        const [cloud, kind] = await Promise.all([cloudApiModule.service.isCloudApi(companyId, whatsappId), channelFeatures.length ? kindOfConnection(companyId, whatsappId) : ("session-host" as const)]);
        return cloud ? "cloud-api" : kind;
      },
    ),
    commands,
    jobs,
    media,
    spreadsheets,
    clock,
    logger,
    guards,
    // Messenger / Instagram's window and actions first (docs/adr/0090), then the Cloud API's rules
    channelRules: {
      ...cloudApiModule.service,
      assertOutbound: async (companyId, whatsappId, chatJid, action, opts) => {
        if (!(whatsappId && (await isMeta(companyId, whatsappId)) && (await metaModule.service.assertOutbound(companyId, whatsappId, chatJid, action))))
          await cloudApiModule.service.assertOutbound(companyId, whatsappId, chatJid, action, opts);
      },
      automaticMessage: async (companyId, whatsappId, chatJid, kind, values) =>
        whatsappId && (await isMeta(companyId, whatsappId)) && (await metaModule.service.replyWindowOf(companyId, whatsappId, chatJid))
          ? (await metaModule.service.window(companyId, whatsappId, chatJid)).state === "closed"
            ? { send: "skip", reason: "no_template" }
            : { send: "text" }
          : cloudApiModule.service.automaticMessage(companyId, whatsappId, chatJid, kind, values),
    },
    directoryTtlMs: config.INBOX_DIRECTORY_TTL_MS,
    pageTokenSecret: config.JWT_SECRET,
    erasedAmong: consent.erasedAmong,
    customerMessageHandlers: [(ticket, message) => botIntake.onCustomerMessage(ticket, message)],
    flowStart,
    listeners: {
      onMessage: [
        searchIndexing.indexer.message,
        pushModule.rules.message,
        // the copilot's transcript of every customer audio (issue 33); built after the inbox, read when a message comes
        (action, m, ticket) => deps.late.copilot?.onMessage(action, m, ticket) ?? Promise.resolve(),
      ],
      onContact: [searchIndexing.indexer.contact],
    },
    historySearch: searchIndexing.historySearch,
    slots: repos.agents,
    // issue 34 (docs/adr/0101): the supervisors' board, kept by the ticket writes
    board: supervisorBoard,
    ticketListeners: [
      (before, after) => distributionTrigger.ticketChanged(before, after),
      // the Assignments metric of person-made assignments (automatic ones are counted by distribution)
      async (before, after, change) => {
        const mode = manualAssignment(before, after, change.byUserId);
        if (mode) recordAssignment(metrics, mode);
      },
      // Web Push: a ticket starts waiting, a ticket given to someone (queued after the unit of work)
      (before, after, change) => pushModule.rules.ticketChanged(before, after, change),
      // the copilot's summary as a note for the attendant a ticket is transferred to (issue 33)
      (before, after) => deps.late.copilot?.onTicketChange(before, after) ?? Promise.resolve(),
    ],
    sla: slaModule.planner,
  });
  const inbox = inboxModule.service;
  pushLate.contactsByIds = inbox.contactsByIds;
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
  // issue 34: the supervisors' cockpit (docs/adr/0101)
  const supervisorModule = createSupervisorModule({
    board: supervisorBoard,
    reads: { queues: repos.queues, users: agentUsers, agents: repos.agents, defaultCapacity },
    clock,
    guards,
  });
  return { consent, inboxReads, slaModule, searchIndexing, inboxModule, inbox, searchModule, distributionModule, botsModule, dashboardModule, supervisorModule, pushModule };
};
export type InboxStage = ReturnType<typeof composeInbox>;
