import type { AppMessageEventData, PresenceEventData } from "@atende/shared/contracts/http/messages";
import type { ContactEventData } from "@atende/shared/contracts/http/contacts";
import type { SlaEventData, TicketEventData } from "@atende/shared/contracts/http/tickets";
import type { SlaAlert } from "@atende/shared/domain/service-levels/sla";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Message } from "@atende/shared/domain/messages/message";
import type { ContactsRepository } from "../contacts/contacts.repository";
import type { MessagesRepository } from "../messages/messages.repository";
import { toMessageView } from "../messages/message-view";
import type { RealtimeService } from "../../realtime/realtime.service";
import { toTicketView, type Directory, type InboxDirectory } from "./inbox-directory";
import type { TicketRecord, TicketsRepository } from "./tickets.repository";
import type { InboxListeners, ListenedTicket } from "../inbox-ports";
import { afterWork } from "../../../platform/unit-of-work";

const audienceOf = (t: Pick<TicketRecord, "status" | "queueId" | "userId">) => ({ kind: "ticket" as const, ticket: { status: t.status, queueId: t.queueId, userId: t.userId } });

/** Realtime events of the inbox (spec 1 section 7): each reaches only sockets allowed to see the ticket. */
export const createInboxEvents = (deps: {
  realtime: RealtimeService;
  directory: InboxDirectory;
  contacts: ContactsRepository;
  messages: MessagesRepository;
  /** the contact's tickets, for contact listeners */
  tickets?: Pick<TicketsRepository, "listIdsByContact" | "findByIds">;
  /** told after each message and contact event (search index, docs/adr/0035) */
  listeners?: InboxListeners;
}) => {
  const { realtime, directory, contacts, messages } = deps;
  const onMessage = deps.listeners?.onMessage ?? [];
  const onContact = deps.listeners?.onContact ?? [];
  const listened = (t: TicketRecord): ListenedTicket => ({
    id: t.id,
    companyId: t.companyId,
    contactId: t.contactId,
    createdAt: t.createdAt,
    // the cycle's protocol (the index's identity document holds it; before ADR 0055 a top-level field nobody wrote)
    protocol: t.cycle?.protocol ?? null,
    uuid: t.uuid,
    userId: t.userId,
    queueId: t.queueId,
  });
  const ctx = async (t: TicketRecord, dir?: Directory, contact?: Contact | null) => ({
    dir: dir ?? (await directory.load(t.companyId)),
    contact: contact !== undefined ? contact : await contacts.findById(t.companyId, t.contactId),
  });
  return {
    /** `ticket` update; when the ticket left some viewers' sight (transfer), they get a delete first. */
    async ticketUpdated(t: TicketRecord, before?: TicketRecord | null, dir?: Directory, contact?: Contact | null) {
      const c = await ctx(t, dir, contact);
      if (before && (before.queueId !== t.queueId || before.userId !== t.userId)) {
        await realtime.publish<TicketEventData>(t.companyId, "ticket", { action: "delete", ticketId: t.id }, audienceOf(before));
      }
      await realtime.publish<TicketEventData>(t.companyId, "ticket", { action: "update", ticket: toTicketView(t, c.dir, c.contact) }, audienceOf(t));
    },
    /**
     * SLA alerts (docs/adr/0033): to the owner; an unassigned ticket's to whoever may see it (its queue's users, admins).
     * Each alert also refreshes the ticket's card (its clocks changed).
     */
    async slaAlerts(t: TicketRecord, alerts: SlaAlert[]) {
      const c = await ctx(t);
      const ticket = toTicketView(t, c.dir, c.contact);
      for (const alert of alerts) {
        const data: SlaEventData = { action: alert.level, kind: alert.kind, at: alert.at, ticket };
        // unassigned: whoever may see the ticket (the queue's users, the admins), the same rule as its card
        await realtime.publish<SlaEventData>(t.companyId, "sla", data, t.userId !== null ? { kind: "users", userIds: [t.userId] } : audienceOf(t));
      }
      await realtime.publish<TicketEventData>(t.companyId, "ticket", { action: "update", ticket }, audienceOf(t));
    },
    async ticketDeleted(t: TicketRecord) {
      await realtime.publish<TicketEventData>(t.companyId, "ticket", { action: "delete", ticketId: t.id }, audienceOf(t));
    },
    async unreadCleared(t: TicketRecord) {
      await realtime.publish<TicketEventData>(t.companyId, "ticket", { action: "updateUnread", ticketId: t.id }, audienceOf(t));
    },
    /**
     * Answers the ticket's contact it used (read when not given), for the caller's next event. `words: false`: an
     * update that changed none of the message's words (an ack): the listeners (the search index) are not told.
     */
    async message(action: "create" | "update", m: Message, t: TicketRecord, dir?: Directory, contact?: Contact | null, opts: { words?: boolean } = {}): Promise<Contact | null> {
      const c = await ctx(t, dir, contact);
      const quoted = m.quotedMsgId ? await messages.findById(t.companyId, m.quotedMsgId) : null;
      const ticket = toTicketView(t, c.dir, c.contact);
      await realtime.publish<AppMessageEventData>(
        t.companyId,
        "appMessage",
        { action, message: toMessageView(m, quoted, c.contact), ticket, contact: ticket.contact },
        audienceOf(t),
      );
      // the search index after the unit of work's frames (an inbound event: after the automatic answers too, ADR 0039)
      if (opts.words === false) return c.contact;
      const told = listened(t);
      for (const l of onMessage) await afterWork(() => l(action, m, told, c.contact));
      return c.contact;
    },
    async presence(t: TicketRecord, presence: PresenceEventData["presence"]) {
      await realtime.publish<PresenceEventData>(t.companyId, "presence", { ticketId: t.id, presence }, audienceOf(t));
    },
    /**
     * A ticket opened without a message (the new-ticket dialog): the contact listeners learn its identity (the search
     * index's contact name, number and protocol), so the ticket list's search finds it before its first message, as
     * it did through the contacts' indexes (docs/adr/0055). Messages tell them again (unchanged: nothing written).
     */
    async ticketOpened(t: TicketRecord, contact: Contact) {
      const told = listened(t);
      for (const l of onContact) await afterWork(() => l(contact, [told]));
    },
    async contactUpdated(contact: Contact) {
      await realtime.publish<ContactEventData>(contact.companyId, "contact", { action: "update", contact }, { kind: "company" });
      const tickets = deps.tickets;
      if (onContact.length && tickets) {
        // the search index after the unit of work's frames, as for messages (ADR 0039)
        await afterWork(async () => {
          const ids = await tickets.listIdsByContact(contact.companyId, contact.id, 100);
          const ts = (await tickets.findByIds(contact.companyId, ids)).map(listened);
          for (const l of onContact) await l(contact, ts);
        });
      }
    },
  };
};
export type InboxEvents = ReturnType<typeof createInboxEvents>;
