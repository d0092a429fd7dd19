import { seesEveryTicket, type Profile } from "../permissions/permissions";

export type TicketViewer = { userId: number; profile: Profile; queueIds: number[]; allTicket: "enabled" | "desabled" };
export type TicketScope = { status: string; queueId: number | null; userId: number | null };

/**
 * Who sees a ticket (spec 1 section 6, SERVER-RULES "Realtime"): admins and supervisors (docs/adr/0101) every ticket of the company;
 * attendants their own tickets and those of their queues; with allTicket enabled also queue-less ones.
 */
export const canSeeTicket = (viewer: TicketViewer, ticket: TicketScope): boolean => {
  if (seesEveryTicket(viewer.profile)) return true;
  if (ticket.userId !== null && ticket.userId === viewer.userId) return true;
  if (ticket.queueId !== null) return viewer.queueIds.includes(ticket.queueId);
  return viewer.allTicket === "enabled";
};
