import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Message } from "@atende/shared/domain/messages/message";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import type { ContactsRepository } from "../contacts/contacts.repository";
import { visibleTo } from "../tickets/ticket-list";
import type { TicketRecord, TicketsRepository } from "../tickets/tickets.repository";
import type { TicketsService } from "../tickets/tickets.service";
import type { MessagesRepository } from "./messages.repository";

export type SearchTicket = {
  id: number;
  uuid: string;
  status: TicketStatus;
  queueId: number | null;
  userId: number | null;
  contactId: number;
  updatedAt: string;
  createdAt: string;
  protocol: string | null;
};
/** A conversation's message as search reads it. */
export type SearchMessage = Pick<Message, "id" | "ticketId" | "contactId" | "body" | "transcript" | "fromMe" | "createdAt" | "isDeleted" | "mediaName">;

/** The fields search reads of a candidate ticket (`SearchTicket` and `visibleTo`) and of a matching message. */
const TICKET_FIELDS = ["id", "uuid", "status", "queueId", "userId", "contactId", "updatedAt", "createdAt", "cycle"] as const;
const MESSAGE_FIELDS = ["id", "ticketId", "contactId", "body", "transcript", "fromMe", "createdAt", "isDeleted", "mediaName"] as const satisfies readonly (keyof SearchMessage)[];

/** The most messages of one conversation the in-conversation search reads. */
export const CONVERSATION_SEARCH_MAX = 5000;

/**
 * What search needs of the inbox (docs/adr/0035): candidate tickets, messages and contacts read in one round trip
 * (three batch reads at once), only tickets the caller may see (the ticket list's rule, `visibleTo`); a conversation's
 * messages for the search inside it.
 */
export const createSearchReads = (deps: {
  tickets: Pick<TicketsRepository, "findByIds">;
  ticketsService: Pick<TicketsService, "findVisible" | "viewerOf">;
  messages: Pick<MessagesRepository, "findByIds" | "pageByContact">;
  contacts: Pick<ContactsRepository, "findByIds" | "pageByName">;
  ticketsOfContact?: Pick<TicketsRepository, "listIdsByContact">;
}) => {
  const searchTicket = (t: TicketRecord): SearchTicket => ({
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    queueId: t.queueId,
    userId: t.userId,
    contactId: t.contactId,
    updatedAt: t.updatedAt,
    createdAt: t.createdAt,
    // the cycle's protocol (docs/adr/0055: was read from a top-level field tickets never had)
    protocol: t.cycle?.protocol ?? null,
  });
  const searchMessage = (m: Message): SearchMessage => ({
    id: m.id,
    ticketId: m.ticketId,
    contactId: m.contactId,
    body: m.body,
    transcript: m.transcript,
    fromMe: m.fromMe,
    createdAt: m.createdAt,
    isDeleted: m.isDeleted,
    mediaName: m.mediaName,
  });
  return {
    async resolve(auth: AuthContext, ids: { ticketIds: number[]; messageIds: string[]; contactIds: number[] }) {
      // only what a result shows and the visibility rule needs: a ticket item is ~1.5 KB, a message's ~1 KB
      const [tickets, messages, contacts] = await Promise.all([
        deps.tickets.findByIds(auth.companyId, ids.ticketIds, TICKET_FIELDS),
        ids.messageIds.length ? deps.messages.findByIds(auth.companyId, ids.messageIds, MESSAGE_FIELDS) : Promise.resolve([]),
        deps.contacts.findByIds(auth.companyId, ids.contactIds),
      ]);
      const visible = tickets.filter(visibleTo(deps.ticketsService.viewerOf(auth)));
      const seen = new Set(visible.map((t) => t.id));
      return {
        tickets: visible.map(searchTicket),
        messages: messages.filter((m) => seen.has(m.ticketId) && !m.isDeleted).map(searchMessage),
        contacts: contacts as Contact[],
      };
    },
    /** The messages of a visible ticket's conversation (the contact's, across tickets, as GET /messages shows it), newest first. */
    async conversation(auth: AuthContext, ticketId: number): Promise<SearchMessage[]> {
      const t = await deps.ticketsService.findVisible(auth, ticketId);
      const out: SearchMessage[] = [];
      let cursor: string | undefined;
      do {
        const page = await deps.messages.pageByContact(auth.companyId, t.contactId, 500, cursor);
        out.push(...page.items.filter((m) => !m.isDeleted).map(searchMessage));
        cursor = page.next ?? undefined;
      } while (cursor && out.length < CONVERSATION_SEARCH_MAX);
      return out;
    },
    /** Every contact of a company with its tickets and messages, a contact at a time (the index backfill). */
    async *history(companyId: number): AsyncGenerator<{ contact: Contact; tickets: SearchTicket[]; messages: SearchMessage[] }> {
      let cursor: string | undefined;
      do {
        const page = await deps.contacts.pageByName(companyId, 50, cursor);
        for (const contact of page.items as Contact[]) {
          const ids = deps.ticketsOfContact ? await deps.ticketsOfContact.listIdsByContact(companyId, contact.id, 1000) : [];
          const tickets = (await deps.tickets.findByIds(companyId, ids)).map(searchTicket);
          const messages: SearchMessage[] = [];
          let mc: string | undefined;
          do {
            const mp = await deps.messages.pageByContact(companyId, contact.id, 500, mc);
            // a repeated automatic message stays out of the index (docs/adr/0061), unless an edit made it its own
            messages.push(...mp.items.filter((m) => !m.isDeleted && !(m.isRepeat && !m.isEdited)).map(searchMessage));
            mc = mp.next ?? undefined;
          } while (mc);
          yield { contact, tickets, messages };
        }
        cursor = page.next ?? undefined;
      } while (cursor);
    },
  };
};
export type SearchReads = ReturnType<typeof createSearchReads>;
