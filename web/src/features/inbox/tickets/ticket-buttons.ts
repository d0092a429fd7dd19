import type { TicketView } from "@atende/shared/contracts/http/tickets";
import type { Profile } from "@atende/shared/domain/permissions/permissions";
import { actionsFor, type TicketAction } from "@atende/shared/domain/tickets/ticket-transitions";
import { useSessionUser } from "../../../lib/session/session-context";

/**
 * Which ticket buttons each surface shows: the actions the shared transition table allows for the ticket's
 * status and the user's profile, in the surface's order. The surfaces only choose where an action goes:
 * the conversation header shows all of them (transfer and delete in its menu); a list card has no room for
 * return and delete.
 */
export const SURFACES = {
  header: ["accept", "reopen", "return", "resolve"],
  headerMenu: ["transfer", "delete"],
  card: ["accept", "reopen", "transfer", "resolve"],
} as const satisfies Record<string, readonly TicketAction[]>;
export type TicketSurface = keyof typeof SURFACES;

export type SurfaceAction<S extends TicketSurface> = (typeof SURFACES)[S][number];

export const ticketButtons = <S extends TicketSurface>(surface: S, status: TicketView["status"], profile: Profile | null | undefined): SurfaceAction<S>[] => {
  const allowed = actionsFor(status, profile);
  return (SURFACES[surface] as readonly SurfaceAction<S>[]).filter((a) => allowed.includes(a));
};

/** The buttons of `surface` for `ticket` and the signed-in user. */
export const useTicketButtons = <S extends TicketSurface>(surface: S, ticket: Pick<TicketView, "status">): SurfaceAction<S>[] =>
  ticketButtons(surface, ticket.status, useSessionUser().profile);
