import { useQueryClient } from "@tanstack/react-query";
import type { ContactEventData } from "@atende/shared/contracts/http/contacts";
import type { AppMessageEventData, PresenceEventData } from "@atende/shared/contracts/http/messages";
import type { SlaEventData, TicketEventData, TicketView } from "@atende/shared/contracts/http/tickets";
import i18n from "i18next";
import { toast } from "../../../lib/toast";
import { useRealtime } from "../../../lib/realtime";
import { applyContactUpdate, reloadContacts, removeContact } from "../contacts/api/contacts";
import { upsertMessage } from "../messages/api/messages-list";
import { noteKeys } from "../ticket-notes/api/ticket-notes";
import { ticketKeys } from "./api/tickets-list";
import { applyTicketUpdate, patchTicket, removeTicketFromLists } from "./ticket-cache";

/**
 * Every realtime event of the inbox updates the react-query caches in place (spec 1 "Live list updates"):
 * ticket update/delete/updateUnread, appMessage create/update, contact update/delete, presence.
 * Mounted once by the notification bell (always present in the layout) so lists stay right on every page.
 */
export function useInboxRealtime(handlers: { onMessage?: (data: AppMessageEventData) => void; onUnreadCleared?: (ticketId: number) => void; onTicket?: (ticket: TicketView) => void } = {}) {
  const qc = useQueryClient();

  useRealtime<TicketEventData>("ticket", (data) => {
    if (data.action === "update") {
      applyTicketUpdate(qc, data.ticket);
      // a bot's handover or an automatic step may have written a note: an open drawer shows it without a reload
      void qc.invalidateQueries({ queryKey: noteKeys.ofTicket(data.ticket.id) });
      handlers.onTicket?.(data.ticket);
    } else if (data.action === "updateUnread") {
      patchTicket(qc, data.ticketId, { unreadMessages: 0 });
      handlers.onUnreadCleared?.(data.ticketId);
    } else if (data.action === "delete") {
      removeTicketFromLists(qc, data.ticketId);
      handlers.onUnreadCleared?.(data.ticketId);
      // The open conversation re-checks access: still visible (admins) -> refreshed, otherwise the viewer leaves.
      void qc.invalidateQueries({ queryKey: ticketKeys.byUuids(), predicate: (q) => (q.state.data as TicketView | undefined)?.id === data.ticketId });
    }
  });

  // an SLA clock turned amber or fell due (issue 13): the card's new clocks and a notice to whoever was told
  useRealtime<SlaEventData>("sla", (data) => {
    applyTicketUpdate(qc, data.ticket);
    const name = data.ticket.contact?.name || data.ticket.contact?.number || `#${data.ticket.id}`;
    const message = i18n.t(`sla:alert.${data.action}`, { kind: i18n.t(`sla:chip.${data.kind}`), name });
    if (data.action === "breach") toast.error(message);
    else toast.warning(message);
  });

  useRealtime<AppMessageEventData>("appMessage", (data) => {
    upsertMessage(qc, data.message);
    if (data.action === "create") applyTicketUpdate(qc, data.ticket);
    else patchTicket(qc, data.ticket.id, { lastMessage: data.ticket.lastMessage });
    handlers.onMessage?.(data);
  });

  useRealtime<ContactEventData>("contact", (data) => {
    if (data.action === "delete") {
      removeContact(qc, data.contactId);
      return;
    }
    if (data.action === "reload") {
      void reloadContacts(qc);
      return;
    }
    applyContactUpdate(qc, data.contact);
    const { id, name, number, email, profilePicUrl, isGroup, extraInfo } = data.contact;
    for (const [key, list] of qc.getQueriesData<{ pages: { tickets: TicketView[] }[] }>({ queryKey: ticketKeys.lists() })) {
      const hit = list?.pages?.flatMap((p) => p.tickets).filter((t) => t.contactId === id) ?? [];
      for (const ticket of hit) patchTicket(qc, ticket.id, { contact: { id, name, number, email, profilePicUrl, isGroup, extraInfo } });
      void key;
    }
  });

  useRealtime<PresenceEventData>("presence", (data) => {
    const presence = data.presence === "composing" || data.presence === "recording" ? data.presence : null;
    patchTicket(qc, data.ticketId, { presence });
  });
}
