import type { TxItem } from "../../../platform/db/transact";
import type { InboxWhatsapp } from "../inbox-ports";
import { ExtraConditionFailed, OpenTicketExists, VersionConflict, type TicketChanges } from "./ticket-changes";
import type { TicketTimersRepository } from "./ticket-timers.repository";
import { contactCardFields, sameContactCard, type ContactCard, type TicketRecord, type TicketsRepository } from "./tickets.repository";

/** After a close with userRating on, an answer 1..3 within this window is a rating. */
export const RATING_WINDOW_MS = 24 * 3600_000;

/** What a message that arrives puts on its ticket (preview, time, direction; unread and last inbound id when theirs). */
export type Arrival = { preview: string; at: string; fromMe: boolean; messageId: string };

const arrivalPatch = (t: Pick<TicketRecord, "unreadMessages">, a: Arrival): Partial<TicketRecord> => ({
  lastMessage: a.preview,
  lastMessageLc: a.preview.toLowerCase(),
  lastMessageAt: a.at,
  lastFromMe: a.fromMe,
  ...(a.fromMe ? {} : { unreadMessages: t.unreadMessages + 1, lastInboundId: a.messageId }),
});

/**
 * The ticket rules of the inbox that are not a person's action (docs/adr/0023-inbox-feature.md; the actions are the
 * shared transition table, ADR 0016): which ticket a customer's message lands on (find or create, at most one
 * pending/open ticket per contact and connection, race-safe), the rating wait after a close, and the timers
 * (transfer of a queue-less pending ticket, expiry of an open one whose last message was ours).
 */
export const createTicketLifecycle = (deps: { tickets: TicketsRepository; changes: TicketChanges; timers: TicketTimersRepository }) => {
  const { tickets, changes, timers } = deps;
  return {
    /** The contact's pending/open ticket on the connection (its id), if any. */
    openTicketId: (companyId: number, contactId: number, whatsappId: number | null) => tickets.findOpenId(companyId, contactId, whatsappId),

    /**
     * A customer's answer while a rating is awaited for the ticket just closed: an answer 1..3 within the window is
     * the rating (the closed ticket is answered, never reopened); any other message ends the wait.
     */
    async ratingAnswer(companyId: number, contactId: number, whatsappId: number, body: string, now: Date): Promise<{ ticket: TicketRecord; rating: number } | null> {
      const wait = await tickets.findRatingWait(companyId, contactId, whatsappId);
      if (wait && wait.until > now.toISOString()) {
        const answer = body.trim();
        if (/^[1-3]$/.test(answer) && (await tickets.takeRatingWait(companyId, contactId, whatsappId))) {
          const closed = await tickets.findById(companyId, wait.ticketId);
          return closed ? { ticket: closed, rating: Number(answer) } : null;
        } else if (wait) {
          await tickets.takeRatingWait(companyId, contactId, whatsappId);
        }
      }
      return null;
    },

    /**
     * Stores an arriving message on the contact's pending/open ticket on the connection, or on a new pending one
     * without owner or queue (then the connection's transfer timer starts). Message and ticket in one transaction;
     * a concurrent writer or a ticket created meanwhile makes it re-read and retry. null: the message was stored
     * already (a concurrent delivery).
     */
    async receive(
      input: {
        companyId: number;
        /** the contact as the pipeline holds it: its card goes on a new ticket and refreshes an older copy (docs/adr/0057) */
        contact: ContactCard;
        whatsapp: Pick<InboxWhatsapp, "id" | "timeToTransfer" | "transferQueueId">;
        chatJid: string;
        arrival: Arrival;
        /** the open ticket's id as the caller already read it (first attempt) */
        openId: number | null;
        now: Date;
      },
      messageItem: (t: TicketRecord) => TxItem,
    ): Promise<{ before: TicketRecord | null; after: TicketRecord } | null> {
      const { companyId, contact, whatsapp, arrival, now } = input;
      for (let attempt = 0; attempt < 8; attempt++) {
        const openId = attempt === 0 ? input.openId : await tickets.findOpenId(companyId, contact.id, whatsapp.id);
        const open = openId ? await tickets.findById(companyId, openId) : null;
        try {
          if (open && open.status !== "closed") {
            // a ticket written before the cards' copies (or one a contact change missed) gets its contact's card
            const wanted = contactCardFields(contact);
            const card = wanted.contactCard && !sameContactCard(open.contactCard, wanted.contactCard) ? wanted : {};
            return { before: open, after: await changes.apply(open, { ...arrivalPatch(open, arrival), ...card }, { byUserId: null, now, extra: [messageItem(open)] }) };
          }
          const after = await changes.create(
            {
              companyId,
              contactId: contact.id,
              whatsappId: whatsapp.id,
              queueId: null,
              userId: null,
              status: "pending",
              isGroup: contact.isGroup,
              ...contactCardFields(contact),
              chatJid: input.chatJid,
              lastMessage: arrival.preview,
              lastMessageLc: arrival.preview.toLowerCase(),
              lastMessageAt: arrival.at,
              lastFromMe: arrival.fromMe,
              unreadMessages: arrival.fromMe ? 0 : 1,
              lastInboundId: arrival.fromMe ? null : arrival.messageId,
            },
            { byUserId: null, now, extra: (t) => [messageItem(t)] },
          );
          if (whatsapp.timeToTransfer && whatsapp.transferQueueId) {
            await timers.schedule({ companyId, ticketId: after.id, kind: "transfer", dueAt: new Date(now.getTime() + whatsapp.timeToTransfer * 60_000).toISOString() });
          }
          return { before: null, after };
        } catch (e) {
          if (e instanceof ExtraConditionFailed) return null; // stored by a concurrent delivery
          if (e instanceof VersionConflict || e instanceof OpenTicketExists) continue;
          throw e;
        }
      }
      throw new Error("inbound: could not store the message");
    },

    /** A rating was asked for on close: for RATING_WINDOW_MS the customer's answer 1..3 rates this ticket. */
    async awaitRating(t: TicketRecord, now: Date): Promise<void> {
      await tickets.putRatingWait(t.companyId, t.contactId, t.whatsappId, t.id, new Date(now.getTime() + RATING_WINDOW_MS));
    },

    /** Our message on an open ticket starts its inactivity expiry (the connection's expiresTicket minutes). */
    async afterOurMessage(t: TicketRecord, whatsapp: Pick<InboxWhatsapp, "expiresTicket"> | undefined, now: Date): Promise<void> {
      if (whatsapp && whatsapp.expiresTicket > 0 && t.status === "open") {
        await timers.schedule({ companyId: t.companyId, ticketId: t.id, kind: "expire", dueAt: new Date(now.getTime() + whatsapp.expiresTicket * 60_000).toISOString() });
      }
    },
  };
};
export type TicketLifecycle = ReturnType<typeof createTicketLifecycle>;
