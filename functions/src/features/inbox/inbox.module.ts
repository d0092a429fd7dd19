import type { FeatureModule, Guards, JobHandlers } from "../../platform/modules/feature-module";
import type { Channels } from "../../platform/channels/channel.port";
import type { Db } from "../../platform/db/client";
import { createPageCursors, createPageTokens } from "../../platform/db/page-cursors";
import { coalescedReads } from "../../platform/db/coalesced-reads";
import type { Logger } from "../../platform/logger";
import type { CommandQueue } from "../../platform/queues/commands.port";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { MediaStore } from "../../platform/storage/media-store.port";
import type { RealtimeService } from "../realtime/realtime.service";
import { createAutomationService } from "./automation/automation.service";
import { createContactsRepository } from "./contacts/contacts.repository";
import { contactsRoutes } from "./contacts/contacts.routes";
import { createContactMergeRepository } from "./contacts/contact-merge.repository";
import { contactMergeRoutes } from "./contacts/contact-merge.routes";
import { createContactMergeService } from "./contacts/contact-merge.service";
import { CONTACT_UPLOAD_JOB, createContactsService, type UploadJobPayload } from "./contacts/contacts.service";
import { createBotFacade } from "./bots/bot-facade";
import type { CustomerMessageHandler, InboxListeners, InboxReads, InboxSla, TicketBoard, TicketChangeListener, TicketSlots } from "./inbox-ports";
import { createSearchReads } from "./messages/search-reads";
import { createTicketAssignment } from "./tickets/ticket-assignment";
import { createInboxService, type InboxService } from "./inbox.service";
import { mediaRoutes } from "./media/media.routes";
import { createInboundService } from "./messages/inbound.service";
import { createMessagesRepository } from "./messages/messages.repository";
import { messageForwardRoutes, messagesRoutes } from "./messages/messages.routes";
import { createMessagesService } from "./messages/messages.service";
import { createWhispers, whisperRoutes, type WhisperPush } from "./messages/whispers";
import { createOutboundService } from "./messages/outbound.service";
import { createAutomaticMessages } from "./messages/automatic-messages";
import { createTicketNotesRepository } from "./notes/ticket-notes.repository";
import { ticketNotesRoutes } from "./notes/ticket-notes.routes";
import { createTicketNotesService } from "./notes/ticket-notes.service";
import { createTagsRepository } from "./tags/tags.repository";
import { tagsRoutes } from "./tags/tags.routes";
import { createTagsService, TAG_UNLINK_JOB } from "./tags/tags.service";
import { createTicketTagLinks } from "./tags/ticket-tag-links";
import { createInboxDirectory } from "./tickets/inbox-directory";
import { createInboxEvents } from "./tickets/inbox-events";
import { createCopilotReads } from "./copilot-reads";
import { createTicketChanges } from "./tickets/ticket-changes";
import { createTicketLifecycle } from "./tickets/ticket-lifecycle";
import { createProtocols } from "./tickets/protocols";
import { createTicketTimersJob } from "./tickets/ticket-timers.job";
import { createTicketTimersRepository } from "./tickets/ticket-timers.repository";
import { createTicketsRepository } from "./tickets/tickets.repository";
import { ticketKanbanRoutes, ticketsRoutes, ticketTagsRoutes } from "./tickets/tickets.routes";
import { createTicketsService, type HistorySearch } from "./tickets/tickets.service";
import type { AuditRecorder } from "../audit/audit.port";
import type { ChannelRules } from "./messages/messages.service";
import type { SpreadsheetCodec } from "../../platform/spreadsheets/spreadsheet.port";
import type { UrlGuard } from "../../platform/net/public-url-guard";

export type InboxDeps = {
  db: Db;
  /** what the inbox reads of companies, queues, queue options, users, connections and settings (inbox-ports.ts) */
  reads: InboxReads;
  realtime: RealtimeService;
  /** one channel adapter per provider kind (docs/adr/0020-channel-port.md) */
  channels: Channels;
  /** the session hosts' command queue: a phone's contact list (POST /contacts/import) */
  commands: CommandQueue;
  jobs: JobQueue;
  media: MediaStore;
  /** contact uploads (.csv/.xls/.xlsx): the API Lambda's SheetJS adapter, unavailable in the others (ADR 0038) */
  spreadsheets: SpreadsheetCodec;
  clock: () => Date;
  logger: Logger;
  guards: Guards;
  /** the audit trail: ticket transfers and deletions, contact and message deletions (docs/adr/0029) */
  audit: AuditRecorder;
  /** how long the inbound pipeline reuses a company's lookups (0: never) */
  directoryTtlMs?: number;
  /** the key material of the ticket lists' page tokens (docs/adr/0040; the API's token secret); absent: a random key per instance */
  pageTokenSecret?: string;
  /** LGPD consent reads (docs/adr/0030): contact imports and creation refuse erased people's numbers */
  erasedAmong?: (companyId: number, numbers: string[]) => Promise<Set<string>>;
  /** per-provider rules for outbound messages (the Cloud API's window, templates, unsupported actions) */
  channelRules?: ChannelRules;
  /**
   * Told of every customer message automation is done with (bots: the runner's intake, ADR 0026), in order, after
   * automation. Built before the inbox and passed here (no late-bound hooks, ADR 0024).
   */
  customerMessageHandlers?: CustomerMessageHandler[];
  /** issue 30: whether a flow takes a new conversation (then automation stands aside); built before the inbox */
  flowStart?: Parameters<typeof createAutomationService>[0]["flowStart"];
  /** the attendants' slot counters, moved in the tickets' own transactions (docs/adr/0032) */
  slots?: TicketSlots;
  /** a whisper's push notice to the attendant (docs/adr/0102); absent: socket event and sound only */
  whisperPush?: WhisperPush;
  /** the supervisors' board (features/supervisor, docs/adr/0101), moved in the tickets' own transactions */
  board?: TicketBoard;
  /** told after every committed ticket write (distribution's trigger, docs/adr/0032); built before the inbox */
  ticketListeners?: TicketChangeListener[];
  /** the outbound URL guard (platform/net/public-url-guard.ts): bot media fetched by URL goes through it */
  urlGuard: UrlGuard;
  /** the guarded outbound fetch (platform/net/outbound-fetch.ts, docs/adr/0062) bot media is fetched with */
  outboundFetch?: typeof fetch;
  /** told of every message and contact change (the search index, docs/adr/0035); built before the inbox */
  listeners?: InboxListeners;
  /** tickets whose history matches a text (GET /tickets?searchParam= reaches the whole history, docs/adr/0035) */
  historySearch?: HistorySearch;
  /** the SLA planner (features/sla, docs/adr/0033): the cycles' clocks; absent: no SLA */
  sla?: InboxSla;
};

/**
 * The inbox feature (docs/adr/0023-inbox-feature.md): tickets, messages, contacts, automation, notes, tags and media
 * share their repositories inside; the rest of the code gets `service` (the InboxService facade). Built in
 * dependency order, nothing registered later: tag links before tickets, tickets before tags (a deleted tag leaves
 * its tickets through the tickets service), automation before tickets (its customer notices).
 */
export const createInboxModule = (deps: InboxDeps) => {
  const { db, reads, realtime, channels, commands, jobs, media, clock, logger, guards, directoryTtlMs = 0, customerMessageHandlers = [] } = deps;
  const cursors = createPageCursors(db);
  const ticketsRepo = createTicketsRepository(db);
  const contactsRepo = createContactsRepository(db);
  const messagesRepo = createMessagesRepository(db);
  const tagsRepo = createTagsRepository(db);
  const timers = createTicketTimersRepository(db);

  const directory = createInboxDirectory({ ...reads, tags: tagsRepo }, directoryTtlMs);
  const events = createInboxEvents({ realtime, directory, contacts: contactsRepo, messages: messagesRepo, tickets: ticketsRepo, listeners: deps.listeners });
  const protocols = createProtocols({ db, timeZoneOf: async (companyId) => (await reads.companies.findById(companyId))?.timezone });
  const changes = createTicketChanges({
    db,
    tickets: ticketsRepo,
    slots: deps.slots,
    board: deps.board,
    listeners: deps.ticketListeners,
    protocols,
    sla: deps.sla,
    timers,
    onSlaAlerts: [(t, alerts) => events.slaAlerts(t, alerts)],
  });
  const lifecycle = createTicketLifecycle({ tickets: ticketsRepo, changes, timers });
  const outbound = createOutboundService({ messages: messagesRepo, changes, channels, events, lifecycle, clock, logger });
  const notesRepo = createTicketNotesRepository(db);
  const automatic = createAutomaticMessages({ outbound, notes: notesRepo, contacts: contactsRepo, channelRules: deps.channelRules, clock, logger });
  const automation = createAutomationService({ changes, lifecycle, outbound, automatic, queueOptions: reads.queueOptions, contacts: contactsRepo, events, clock, logger, flowStart: deps.flowStart });
  const tickets = createTicketsService({
    tickets: ticketsRepo,
    contacts: contactsRepo,
    changes,
    directory,
    events,
    cursors,
    pageTokens: createPageTokens(deps.pageTokenSecret),
    coalesceReads: (fn) => coalescedReads(db, fn),
    notices: automation.notices,
    tagLinks: createTicketTagLinks(tagsRepo),
    clock,
    audit: deps.audit,
    historySearch: deps.historySearch,
  });
  const tags = createTagsService({
    tags: tagsRepo,
    realtime,
    cursors,
    ticketTags: (companyId, ticketId, tagId) => tickets.removeTagFromTicket(companyId, ticketId, tagId),
    jobs,
    clock,
  });
  const contactMerge = createContactMergeService({
    contacts: contactsRepo,
    merge: createContactMergeRepository(db),
    tickets: ticketsRepo,
    events,
    realtime,
    audit: deps.audit,
    clock,
    readContacts: (companyId, max) => contactsRepo.readForDuplicates(companyId, max),
  });
  const contacts = createContactsService({ contacts: contactsRepo, whatsapps: reads.whatsapps, commands, jobs, media, tickets: ticketsRepo, realtime, cursors, events, erasedAmong: deps.erasedAmong, clock, audit: deps.audit, spreadsheets: deps.spreadsheets });
  const messages = createMessagesService({
    channelRules: deps.channelRules,
    messages: messagesRepo,
    tickets: ticketsRepo,
    ticketsService: tickets,
    changes,
    contacts: contactsRepo,
    directory,
    events,
    outbound,
    media,
    cursors,
    clock,
    audit: deps.audit,
    coalesceReads: (fn) => coalescedReads(db, fn),
  });
  // issue 34 (docs/adr/0102): a supervisor's whisper to the ticket's attendant, never sent on a channel
  const whispers = createWhispers({ messages: messagesRepo, tickets: ticketsRepo, ticketsService: tickets, events, realtime, audit: deps.audit, clock, push: deps.whisperPush });
  const inbound = createInboundService({
    messages: messagesRepo,
    tickets: ticketsRepo,
    changes,
    contacts,
    directory,
    events,
    outbound,
    automation,
    lifecycle,
    clock,
    logger,
    customerMessageHandlers,
    coalesceReads: (fn) => coalescedReads(db, fn),
  });
  const ticketTimersJob = createTicketTimersJob({ timers, changes, directory, events, automatic, logger });
  const ticketNotes = createTicketNotesService({ notes: notesRepo, tickets, users: reads.users, clock });
  const bots = createBotFacade({
    tickets: ticketsRepo,
    ticketsService: tickets,
    changes,
    contacts: contactsRepo,
    messages: messagesRepo,
    notes: notesRepo,
    outbound,
    directory,
    events,
    media,
    clock,
    urlGuard: deps.urlGuard,
    fetch: deps.outboundFetch,
    earlyReads: (companyId) => realtime.readEarly(companyId),
  });

  const search = createSearchReads({ tickets: ticketsRepo, ticketsService: tickets, messages: messagesRepo, contacts: contactsRepo, ticketsOfContact: ticketsRepo });
  const distribution = createTicketAssignment({ tickets: ticketsRepo, changes, directory, events, notices: automation.notices, contacts: contactsRepo, clock });
  const service: InboxService = createInboxService({
    contacts,
    messages,
    tickets,
    bots,
    search,
    distribution,
    findTicket: (companyId, id) => ticketsRepo.findById(companyId, id),
    findContacts: (companyId, ids) => contactsRepo.findByIds(companyId, ids),
    listTags: (companyId) => tagsRepo.listByCompany(companyId),
  });
  const ownJobs: { named: NonNullable<JobHandlers["named"]> } = {
    named: {
      [TAG_UNLINK_JOB]: (companyId, payload) => tags.continueUnlink(companyId, Number(payload.tagId)),
      // our own job (enqueued by the contacts service), so its payload has that shape
      [CONTACT_UPLOAD_JOB]: (companyId, payload) => contacts.continueUpload(companyId, payload as UploadJobPayload),
    },
  };
  const module = {
    service,
    /** in mount order; /messages comes after whatever the root mounts before it (the external API's /messages/send) */
    routes: [
      { path: "/tickets", app: ticketsRoutes(tickets, guards) },
      { path: "/tickets", app: whisperRoutes(whispers, guards) },
      { path: "/ticket", app: ticketKanbanRoutes(tickets, guards) },
      { path: "/ticket-tags", app: ticketTagsRoutes(tickets, guards) },
      { path: "/tags", app: tagsRoutes(tags, tickets, guards) },
      { path: "/messages", app: messagesRoutes(messages, guards) },
      { path: "/message", app: messageForwardRoutes(messages, guards) },
      // /duplicates and /:id/merge before the contacts' /:id (docs/adr/0103)
      { path: "/contacts", app: contactMergeRoutes(contactMerge, guards) },
      { path: "/contacts", app: contactsRoutes(contacts, guards) },
      { path: "/ticket-notes", app: ticketNotesRoutes(ticketNotes, guards) },
      { path: "/media", app: mediaRoutes(media, guards) },
    ],
    /** session-host events the inbox owns (other modules may handle the same types after it: campaigns do) */
    inbound: {
      message: (e) => inbound.message(e),
      "message.update": (e) => inbound.messageUpdate(e),
      presence: (e) => inbound.presence(e),
      call: (e) => inbound.call(e),
      "command.result": (e) => inbound.commandResult(e),
      // the parts of a phone's contacts asked for by POST /contacts/import, a LID found to be a number, pictures
      "contacts.listed": (e) => contacts.onContactsListed(e),
      "contact.picture": async (e) => {
        await contacts.setPictureFromWhatsapp(e.companyId, { jid: e.chatJid, number: e.number, lid: e.lid }, e.profilePicUrl);
      },
      "contact.identity": async (e) => {
        await contacts.linkIdentities(e.companyId, { lid: e.lid, number: e.number });
      },
    },
    jobs: ownJobs,
    tick: [{ name: ticketTimersJob.name, run: (now) => ticketTimersJob.run(now) }],
    /** the inside services, for the composition root's tests and the local runner (not for other features) */
    parts: { tickets, contacts, messages, inbound, automation, ticketNotes, tags, ticketTimersJob },
    /** what the attendants' copilot reads and writes (features/copilot, issue 33) */
    copilot: createCopilotReads({ tickets, ticketsRepo, messages: messagesRepo, notes: notesRepo, events, media, clock }),
    /** a party's conversation, newest first, by its jid (the website chat's visitor reads their own, docs/adr/0092) */
    async conversationOf(companyId: number, jid: string, limit: number) {
      const contact = await contacts.findByJid(companyId, jid);
      if (!contact) return [];
      const items = (await messagesRepo.pageByContact(companyId, contact.id, limit)).items;
      // a contact a website visitor was merged into (docs/adr/0104) holds its other conversations too: the visitor
      // reads only the tickets of this jid
      const own = await ticketsRepo.findByIds(companyId, [...new Set(items.map((m) => m.ticketId))]);
      const mine = new Set(own.filter((t) => t.chatJid === jid).map((t) => t.id));
      // whispers are the company's own (docs/adr/0102): never in what the customer reads
      return items.filter((m) => mine.has(m.ticketId) && !m.internal);
    },
  } satisfies FeatureModule<InboxService> & { parts: unknown; copilot: unknown; conversationOf: unknown };
  return module;
};
export type InboxModule = ReturnType<typeof createInboxModule>;
