import type { SessionUser } from "@atende/shared/contracts/http/auth";
import type { TicketView } from "@atende/shared/contracts/http/tickets";

/**
 * Whether a new customer message rings the bell for this user: their own tickets, and pending tickets of their
 * queues; queue-less pending tickets only with allTicket enabled (spec 1 section 3); admins every pending ticket.
 */
export const shouldNotify = (user: Pick<SessionUser, "id" | "profile" | "allTicket" | "queues">, ticket: Pick<TicketView, "userId" | "status" | "queueId">): boolean => {
  if (ticket.userId === user.id) return true;
  if (ticket.status !== "pending") return false;
  if (user.profile === "admin") return true;
  if (ticket.queueId === null) return user.allTicket === "enabled";
  return user.queues.some((q) => q.id === ticket.queueId);
};

/** Browser tab title with the unread count: "(3) Atende". */
export const titleWithCount = (base: string, count: number) => (count > 0 ? `(${count}) ${base}` : base);
