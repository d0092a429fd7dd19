import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TagKanbanResponse } from "@atende/shared/contracts/http/tags";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { api } from "../../../lib/api-client";
import { kanbanKeys } from "../../../lib/query-keys";

/** The board (spec 3): lanes are the kanban tags (GET /tags/kanban), cards the user's queues' tickets (GET /ticket/kanban). */

export const kanbanLanesOptions = () =>
  queryOptions({ queryKey: kanbanKeys.lanes(), queryFn: async () => (await api.get<TagKanbanResponse>("/tags/kanban")).lista });

export const kanbanTicketsOptions = (queueIds: number[]) =>
  queryOptions({
    queryKey: kanbanKeys.tickets(queueIds),
    queryFn: async () => (await api.get<{ tickets: TicketView[] }>("/ticket/kanban", { query: { queueIds: JSON.stringify(queueIds) } })).tickets,
  });

export const useKanbanLanes = () => useQuery(kanbanLanesOptions());
export const useKanbanTickets = (queueIds: number[]) => useQuery(kanbanTicketsOptions(queueIds));

/** Which step of a move failed, so the page can say what happened. */
export type MoveStep = "remove" | "add";
export class MoveError extends Error {
  constructor(
    readonly step: MoveStep,
    readonly reason: unknown,
  ) {
    super(`kanban move failed at ${step}`);
  }
}

/**
 * Moves a card (spec 3 section 4): first removes the ticket's tag link, then adds the target lane's tag
 * (no add when the target is the first lane, "no tag"). `onStep` reports each step done (the page toasts it).
 */
export const useMoveTicket = (onStep: (step: MoveStep) => void) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ ticketId, tagId }: { ticketId: number; tagId: number | null }) => {
      try {
        await api.delete(`/ticket-tags/${ticketId}`);
      } catch (e) {
        throw new MoveError("remove", e);
      }
      onStep("remove");
      if (tagId === null) return;
      try {
        await api.put(`/ticket-tags/${ticketId}/${tagId}`);
      } catch (e) {
        throw new MoveError("add", e);
      }
      onStep("add");
    },
    onSettled: () => qc.invalidateQueries({ queryKey: kanbanKeys.all }),
  });
};
