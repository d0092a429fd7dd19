import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { Logger } from "../../platform/logger";
import type { CommandQueue } from "../../platform/queues/commands.port";
import type { MediaStore } from "../../platform/storage/media-store.port";
import type { CompaniesRepository } from "../companies/companies.repository";
import { createContactsRepository } from "../contacts/contacts.repository";
import { createContactsService } from "../contacts/contacts.service";
import { createAutomationService } from "../inbox-automation/automation.service";
import { createInboundService } from "../messages/inbound.service";
import { createMessagesRepository } from "../messages/messages.repository";
import { createMessagesService } from "../messages/messages.service";
import { createOutboundService } from "../messages/outbound.service";
import type { QueueOptionsRepository } from "../queue-options/queue-options.repository";
import type { QueuesRepository } from "../queues/queues.repository";
import type { RealtimeService } from "../realtime/realtime.service";
import type { SettingsRepository } from "../settings/settings.repository";
import { createTagsRepository } from "../tags/tags.repository";
import { createTagsService } from "../tags/tags.service";
import { createTicketNotesRepository } from "../ticket-notes/ticket-notes.repository";
import { createTicketNotesService } from "../ticket-notes/ticket-notes.service";
import type { UsersRepository } from "../users/users.repository";
import type { WhatsappsRepository } from "../whatsapps/whatsapps.repository";
import { createInboxDirectory } from "./inbox-directory";
import { createInboxEvents } from "./inbox-events";
import { createTicketChanges } from "./ticket-changes";
import { createTicketTimersJob } from "./ticket-timers.job";
import { createTicketTimersRepository } from "./ticket-timers.repository";
import { createTicketsRepository } from "./tickets.repository";
import { createTicketsService, type TicketNotices } from "./tickets.service";

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
  media: MediaStore;
  clock: () => Date;
  logger: Logger;
}) => {
  const { db, repos, realtime, commands, media, clock, logger } = deps;
  const tickets = createTicketsRepository(db);
  const contactsRepo = createContactsRepository(db);
  const messagesRepo = createMessagesRepository(db);
  const tagsRepo = createTagsRepository(db);
  const timers = createTicketTimersRepository(db);
  const cursors = createPageCursors(db);
  const directory = createInboxDirectory({ ...repos, tags: tagsRepo });
  const events = createInboxEvents({ realtime, directory, contacts: contactsRepo, messages: messagesRepo });
  const changes = createTicketChanges({ db, tickets });
  const outbound = createOutboundService({ messages: messagesRepo, changes, commands, events, timers, clock, logger });
  const automation = createAutomationService({ changes, tickets, outbound, queueOptions: repos.queueOptions, contacts: contactsRepo, events, clock, logger });
  const notices: { current?: TicketNotices } = { current: automation.notices };
  const ticketsService = createTicketsService({ tickets, contacts: contactsRepo, changes, directory, events, cursors, notices, clock });
  const contacts = createContactsService({ contacts: contactsRepo, cursors, events: () => events, clock });
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
    tags: createTagsService({ tags: tagsRepo, realtime, clock }),
    ticketTimersJob,
  };
};
