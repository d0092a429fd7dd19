import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import type { TicketCreateInput, TicketUpdateInput } from "@atende/shared/domain/tickets/ticket";
import { api } from "../../../../lib/api-client";
import { applyTicketUpdate, removeTicketFromLists } from "../ticket-cache";
import { ticketKeys } from "./tickets-list";

/** GET /tickets/u/{uuid}: the ticket the route names. Errors (foreign queue, not found) are handled by the viewer. */
export const ticketByUuidOptions = (uuid: string) =>
  queryOptions({ queryKey: ticketKeys.byUuid(uuid), queryFn: () => api.get<TicketView>(`/tickets/u/${encodeURIComponent(uuid)}`), retry: false, meta: { silentError: true } });

export const useTicketByUuid = (uuid: string | undefined) => useQuery({ ...ticketByUuidOptions(uuid ?? ""), enabled: !!uuid });

/** PUT /tickets/{id}: accept, close, reopen, return, transfer. The answer replaces the ticket in every cache. */
export const useUpdateTicket = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: TicketUpdateInput & { id: number }) => api.put<TicketView>(`/tickets/${id}`, input),
    onSuccess: (ticket) => {
      if (ticket && typeof ticket === "object" && "id" in ticket) applyTicketUpdate(qc, ticket);
      else void qc.invalidateQueries({ queryKey: ticketKeys.all });
    },
  });
};

/** POST /tickets (new-ticket dialog; ERR_OTHER_OPEN_TICKET is handled by the dialog). */
export const useCreateTicket = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TicketCreateInput) => api.post<TicketView>("/tickets", input),
    onSuccess: (ticket) => applyTicketUpdate(qc, ticket),
    meta: { silentError: true },
  });
};

/** DELETE /tickets/{id} (admins). */
export const useDeleteTicket = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/tickets/${id}`),
    onSuccess: (_r, id) => removeTicketFromLists(qc, id),
  });
};

/** POST /tickets/closeAll {status, selectedQueueIds} (admins). */
export const useCloseAll = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { status: "open" | "pending"; selectedQueueIds: number[] }) => api.post<{ closed: number }>("/tickets/closeAll", input),
    onSuccess: () => qc.invalidateQueries({ queryKey: ticketKeys.all }),
  });
};
