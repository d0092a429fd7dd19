import type { TicketCycle } from "@atende/shared/contracts/http/tickets";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { TicketScope } from "@atende/shared/domain/tickets/visibility";
import type { BotInbox } from "../bots/bot-inbox.port";
import type { ContactsService } from "./contacts/contacts.service";
import type { MessagesService } from "./messages/messages.service";
import type { TicketsService } from "./tickets/tickets.service";
import type { SearchReads } from "./messages/search-reads";
import type { TicketAssignment } from "./tickets/ticket-assignment";

/**
 * The inbox as the rest of the code sees it (docs/adr/0023-inbox-feature.md): one facade over tickets, messages and
 * contacts. Its callers today: campaigns (contact + send), scheduled messages (contact check + send), the external
 * messages API (contact + send) and the dashboard (attention cycles). Anything else stays inside the inbox.
 */
export type InboxService = {
  /** The contact of a WhatsApp number or LID, found by its identities or created (campaigns, external API). */
  upsertFromWhatsapp: ContactsService["upsertFromWhatsapp"];
  /** A contact of the caller's company, or ERR_NO_CONTACT_FOUND (scheduled messages). */
  getContact(auth: AuthContext, contactId: number): Promise<Contact>;
  /**
   * A message to a contact as a user (null: the system), through a connection (null: the company's default), into
   * the contact's pending/open ticket or a new one (pending when nobody owns it, else open in the owner's first
   * queue); fixed ids make a repeat store and send nothing (campaigns, schedules, external API).
   */
  sendToContact: MessagesService["sendToContact"];
  /** Attention cycles queued in [fromIso, toIso) (dashboard). */
  listCyclesBetween(companyId: number, fromIso: string, toIso: string): Promise<TicketCycle[]>;
  /** Contacts of the company by id, read in batches of 100 (reports: one row per cycle, no read per row). */
  contactsByIds(companyId: number, ids: number[]): Promise<Contact[]>;
  /** The company's tags (reports). */
  listTags(companyId: number): Promise<{ id: number; name: string; color: string }[]>;
  /** What a bot may read and do in a ticket (the bot runner, ADR 0026). */
  bots: BotInbox;
  /**
   * the connection and chat of one of the company's tickets (null: not the company's), with what decides who may
   * see it (status, queue, owner): the Cloud API window
   */
  ticketChannel(companyId: number, ticketId: number): Promise<({ whatsappId: number | null; chatJid: string } & TicketScope) | null>;
  /** what search results show, visibility applied (the search feature, docs/adr/0035) */
  search: SearchReads;
  /** What automatic distribution reads and does (docs/adr/0032): waiting tickets, last owner, open count, assign. */
  distribution: TicketAssignment;
};

export const createInboxService = (parts: {
  contacts: Pick<ContactsService, "upsertFromWhatsapp" | "get">;
  messages: Pick<MessagesService, "sendToContact">;
  tickets: Pick<TicketsService, "listCyclesBetween">;
  bots: BotInbox;
  search: SearchReads;
  distribution: TicketAssignment;
  findTicket: (companyId: number, ticketId: number) => Promise<({ whatsappId: number | null; chatJid: string } & TicketScope) | null>;
  findContacts: (companyId: number, ids: number[]) => Promise<Contact[]>;
  listTags: (companyId: number) => Promise<{ id: number; name: string; color: string }[]>;
}): InboxService => ({
  contactsByIds: (companyId, ids) => parts.findContacts(companyId, ids),
  listTags: async (companyId) => (await parts.listTags(companyId)).map((t) => ({ id: t.id, name: t.name, color: t.color })),
  bots: parts.bots,
  search: parts.search,
  distribution: parts.distribution,
  ticketChannel: async (companyId, ticketId) => {
    const t = await parts.findTicket(companyId, ticketId);
    return t ? { whatsappId: t.whatsappId, chatJid: t.chatJid, status: t.status, queueId: t.queueId, userId: t.userId } : null;
  },
  upsertFromWhatsapp: (companyId, whatsappId, party) => parts.contacts.upsertFromWhatsapp(companyId, whatsappId, party),
  getContact: (auth, contactId) => parts.contacts.get(auth, contactId),
  sendToContact: (input) => parts.messages.sendToContact(input),
  listCyclesBetween: (companyId, fromIso, toIso) => parts.tickets.listCyclesBetween(companyId, fromIso, toIso),
});
