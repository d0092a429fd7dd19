import { AppError } from "../../../platform/errors";
import type { ContactsRepository } from "../contacts/contacts.repository";
import type { InboxDirectory } from "./inbox-directory";
import type { InboxEvents } from "./inbox-events";
import { SlotUnavailable, type TicketChanges } from "./ticket-changes";
import type { TicketNotices } from "./tickets.service";
import type { TicketsRepository } from "./tickets.repository";

/** A pending ticket waiting in a queue, as distribution sees it. */
export type QueuedTicket = { id: number; contactId: number; queueId: number; queuedAt: string };
export type AssignOutcome = "assigned" | "taken" | "full";

/** Bot stages during which the customer is still choosing (the ticket is not waiting for a person yet). */
const CHOOSING = new Set(["queues", "options"]);

/**
 * What automatic distribution may read and do in the inbox (docs/adr/0032): the queue's waiting tickets, who
 * last served a contact, an attendant's open count, and the assignment itself, which is an accept by the system:
 * the ticket becomes open with the attendant (greeting rules of an accept apply) in one transaction with the
 * attendant's guarded slot (online and under capacity) and conditioned on the ticket still being pending in the
 * queue without owner. Never two attendants for one ticket, never over capacity, whatever the concurrency.
 */
export const createTicketAssignment = (deps: {
  tickets: TicketsRepository;
  changes: TicketChanges;
  directory: InboxDirectory;
  events: InboxEvents;
  notices: TicketNotices;
  contacts: ContactsRepository;
  clock: () => Date;
}) => {
  const { tickets, changes, directory, events, notices, contacts, clock } = deps;
  return {
    /** Pending, owner-less, non-group tickets of the queue whose customer is done choosing, oldest first. */
    async pendingOfQueue(companyId: number, queueId: number, limit: number): Promise<QueuedTicket[]> {
      const list = await tickets.listQueuePending(companyId, queueId, limit);
      return list
        .filter((t) => t.status === "pending" && t.userId === null && t.queueId === queueId && !t.isGroup && !CHOOSING.has(t.bot.stage))
        .map((t) => ({ id: t.id, contactId: t.contactId, queueId, queuedAt: t.cycle.queuedAt }))
        .sort((a, b) => (a.queuedAt < b.queuedAt ? -1 : a.queuedAt > b.queuedAt ? 1 : a.id - b.id));
    },
    /** The attendant who owned the contact's most recent other ticket (the customer's own attendant), if any. */
    async lastOwner(companyId: number, contactId: number, exceptTicketId: number): Promise<number | null> {
      const ids = (await tickets.listIdsByContact(companyId, contactId, 6)).filter((id) => id !== exceptTicketId);
      if (!ids.length) return null;
      const found = (await tickets.findByIds(companyId, ids)).filter((t) => t.userId !== null).sort((a, b) => b.id - a.id);
      return found[0]?.userId ?? null;
    },
    countOpen: (companyId: number, userId: number) => tickets.countOwnedOpen(companyId, userId),

    /**
     * `later`: where to put the publishing and the customer notices instead of waiting for them (a run assigns the
     * next ticket meanwhile and waits for them all at the end of its pass).
     */
    async assign(companyId: number, ticketId: number, queueId: number, userId: number, capacity: number, later?: Promise<unknown>[]): Promise<AssignOutcome> {
      let out;
      try {
        out = await changes.mutate(
          companyId,
          ticketId,
          (t) =>
            t.status === "pending" && t.userId === null && t.queueId === queueId && !CHOOSING.has(t.bot.stage)
              ? { patch: { status: "open", userId, bot: { ...t.bot, stage: "done" } }, action: "accept", takeSlot: { capacity } }
              : null,
          { byUserId: null, now: clock() },
        );
      } catch (e) {
        if (e instanceof SlotUnavailable) return "full";
        if (e instanceof AppError && e.code === "ERR_NO_TICKET_FOUND") return "taken";
        throw e;
      }
      if (!out) return "taken";
      const { before, after } = out;
      const tell = async () => {
        const dir = await directory.loadFor(companyId, { queueIds: [after.queueId], userIds: [after.userId], whatsappIds: [after.whatsappId], tagIds: after.tagIds, settings: true });
        const contact = await contacts.findById(companyId, after.contactId);
        await events.ticketUpdated(after, before, dir, contact);
        await notices.onChanged("accept", before, after, null, dir);
      };
      if (later) later.push(tell());
      else await tell();
      return "assigned";
    },
  };
};
export type TicketAssignment = ReturnType<typeof createTicketAssignment>;
