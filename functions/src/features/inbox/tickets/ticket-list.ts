import { canSeeTicket, type TicketViewer } from "@atende/shared/domain/tickets/visibility";

/** Which tickets a viewer may see (the lists read by `TicketsRepository#pageList` are filtered through it). */
export const visibleTo = (viewer: TicketViewer) => (t: { status: string; queueId: number | null; userId: number | null }) => canSeeTicket(viewer, t);
