import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TicketNoteView } from "@atende/shared/contracts/http/messages";
import { api } from "../../../../lib/api-client";

/** Internal notes of a ticket's contact (spec 1 section 7 "Ticket notes"). */
export const noteKeys = {
  ofTicket: (ticketId: number) => ["ticket-notes", ticketId] as const,
  list: (ticketId: number, contactId: number) => ["ticket-notes", ticketId, contactId] as const,
};

export const ticketNotesOptions = (ticketId: number, contactId: number) =>
  queryOptions({
    queryKey: noteKeys.list(ticketId, contactId),
    queryFn: async () => {
      const data = await api.get<TicketNoteView[] | { notes: TicketNoteView[] }>("/ticket-notes/list", { query: { ticketId, contactId } });
      return Array.isArray(data) ? data : (data?.notes ?? []);
    },
  });

export const useTicketNotes = (ticketId: number, contactId: number) => useQuery(ticketNotesOptions(ticketId, contactId));

export const useAddNote = (ticketId: number, contactId: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => api.post<TicketNoteView>("/ticket-notes", { note, ticketId, contactId }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ticketNotesOptions(ticketId, contactId).queryKey }),
  });
};

export const useDeleteNote = (ticketId: number, contactId: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/ticket-notes/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ticketNotesOptions(ticketId, contactId).queryKey }),
  });
};
