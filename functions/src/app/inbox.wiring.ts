import type { Db } from "../platform/db/client";
import { createPageCursors } from "../platform/db/page-cursors";
import type { Logger } from "../platform/logger";
import type { CommandQueue } from "../platform/queues/commands.port";
import { createChannels, createSessionHostChannel } from "../platform/channels/session-host-channel.adapter";
import type { JobQueue } from "../platform/queues/jobs.port";
import type { MediaStore } from "../platform/storage/media-store.port";
import type { CompaniesRepository } from "../features/companies/companies.repository";
import { createContactsRepository } from "../features/inbox/contacts/contacts.repository";
import { createContactsService } from "../features/inbox/contacts/contacts.service";
import { createAutomationService } from "../features/inbox/automation/automation.service";
import { createInboundService } from "../features/inbox/messages/inbound.service";
import { createMessagesRepository } from "../features/inbox/messages/messages.repository";
import { createMessagesService } from "../features/inbox/messages/messages.service";
import { createOutboundService } from "../features/inbox/messages/outbound.service";
import type { QueueOptionsRepository } from "../features/queue-options/queue-options.repository";
import type { QueuesRepository } from "../features/queues/queues.repository";
import type { RealtimeService } from "../features/realtime/realtime.service";
import type { SettingsRepository } from "../features/settings/settings.repository";
import { createTagsRepository } from "../features/inbox/tags/tags.repository";
import { createTagsService, type TicketTagRemover } from "../features/inbox/tags/tags.service";
import { createTicketNotesRepository } from "../features/inbox/notes/ticket-notes.repository";
import { createTicketNotesService } from "../features/inbox/notes/ticket-notes.service";
import type { UsersRepository } from "../features/users/users.repository";
import type { WhatsappsRepository } from "../features/whatsapps/whatsapps.repository";
import { createInboxDirectory } from "../features/inbox/tickets/inbox-directory";
import { createInboxEvents } from "../features/inbox/tickets/inbox-events";
import { createTicketChanges } from "../features/inbox/tickets/ticket-changes";
import { createTicketTimersJob } from "../features/inbox/tickets/ticket-timers.job";
import { createTicketTimersRepository } from "../features/inbox/tickets/ticket-timers.repository";
import { createTicketsRepository } from "../features/inbox/tickets/tickets.repository";
import { createTicketsService } from "../features/inbox/tickets/tickets.service";

/** Wires the inbox slices (called once from the container). */
export const createInbox = (deps: {
  db: Db;
  repos: {
    companies: CompaniesRepository;
    queues: QueuesRepository;
    users: UsersRepository;
    whatsapps: WhatsappsRepository;
    settings: SettingsRepository;
    queueOptions: QueueOptionsRepository;
  };
  realtime: RealtimeService;
  commands: CommandQueue;
  jobs: JobQueue;
  media: MediaStore;
  clock: () => Date;
  logger: Logger;
  directoryTtlMs?: number;
}) => {
  const { db, repos, realtime, commands, jobs, media, clock, logger, directoryTtlMs = 0 } = deps;
  const tickets = createTicketsRepository(db);
  const contactsRepo = createContactsRepository(db);
  const messagesRepo = createMessagesRepository(db);
  const tagsRepo = createTagsRepository(db);
  const timers = createTicketTimersRepository(db);
  const cursors = createPageCursors(db);
  const directory = createInboxDirectory({ ...repos, tags: tagsRepo }, directoryTtlMs);
  const events = createInboxEvents({ realtime, directory, contacts: contactsRepo, messages: messagesRepo });
  const changes = createTicketChanges({ db, tickets });
  // the channel registry: one adapter per provider kind; QR sessions (Baileys, simulator) are the only kind today
  const channels = createChannels({ "session-host": createSessionHostChannel(commands) });
  const outbound = createOutboundService({ messages: messagesRepo, changes, channels, events, timers, clock, logger });
  const automation = createAutomationService({ changes, tickets, outbound, queueOptions: repos.queueOptions, contacts: contactsRepo, events, clock, logger });
  const ticketTags: { current?: TicketTagRemover } = {};
  const tags = createTagsService({ tags: tagsRepo, realtime, cursors, ticketTags, jobs, clock });
  const ticketsService = createTicketsService({ tickets, contacts: contactsRepo, changes, directory, events, cursors, notices: automation.notices, tagLinks: tags, clock });
  ticketTags.current = (companyId, ticketId, tagId) => ticketsService.removeTagFromTicket(companyId, ticketId, tagId);
  const contacts = createContactsService({ contacts: contactsRepo, whatsapps: repos.whatsapps, commands, tickets, realtime, cursors, events: () => events, clock });
  const messages = createMessagesService({
    messages: messagesRepo,
    tickets,
    ticketsService,
    changes,
    contacts: contactsRepo,
    directory,
    events,
    outbound,
    media,
    cursors,
    clock,
  });
  const inbound = createInboundService({ messages: messagesRepo, tickets, changes, contacts, directory, events, outbound, automation, timers, clock, logger });
  const ticketTimersJob = createTicketTimersJob({ timers, changes, directory, events, outbound, logger });
  return {
    tickets: ticketsService,
    contacts,
    messages,
    inbound,
    automation,
    ticketNotes: createTicketNotesService({ notes: createTicketNotesRepository(db), tickets: ticketsService, users: repos.users, clock }),
    tags,
    ticketTimersJob,
  };
};
