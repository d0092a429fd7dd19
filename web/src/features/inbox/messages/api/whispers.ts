import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { api } from "../../../../lib/api-client";
import { upsertMessage } from "./messages-list";

/** POST /tickets/{id}/whispers: a message only the company's users see (docs/adr/0102). */
export const useSendWhisper = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, body }: { ticketId: number; body: string }) => api.post<MessageView>(`/tickets/${ticketId}/whispers`, { body }),
    onSuccess: (message) => upsertMessage(qc, message),
  });
};
