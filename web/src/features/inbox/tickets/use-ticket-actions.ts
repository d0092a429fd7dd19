import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { useNavigate } from "react-router";
import { useSessionUser } from "../../../lib/session/session-context";
import { useUpdateTicket } from "./api/ticket";

/** Accept / close / reopen / return of spec 1 section 4, as the card and the conversation header use them. */
export function useTicketActions() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const update = useUpdateTicket();
  const run = (ticket: TicketView, input: Parameters<typeof update.mutate>[0], open: boolean) =>
    update.mutate(input, { onSuccess: () => (open ? navigate(`/tickets/${ticket.uuid}`) : undefined) });
  return {
    busy: update.isPending,
    accept: (ticket: TicketView) => run(ticket, { id: ticket.id, status: "open", userId: user.id }, true),
    close: (ticket: TicketView) => run(ticket, { id: ticket.id, status: "closed", userId: ticket.userId ?? user.id }, false),
    reopen: (ticket: TicketView) => run(ticket, { id: ticket.id, status: "open", userId: user.id, queueId: ticket.queueId }, true),
    // status only: naming "no user" too would make it a transfer to no one (recorded so, with the transfer notice)
    returnToQueue: (ticket: TicketView) => run(ticket, { id: ticket.id, status: "pending" }, false),
  };
}
