import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { api } from "../../../../lib/api-client";
import { upsertMessage } from "./messages-list";

/** POST /messages/{ticketId}: JSON text (with optional quotedMsg) or multipart medias. */
export type SendText = { ticketId: number; body: string; quotedMsg?: MessageView | null; mediaUrl?: string | null };

const isMessage = (value: unknown): value is MessageView => !!value && typeof value === "object" && "id" in value && "ticketId" in value;

export const useSendMessage = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, body, quotedMsg, mediaUrl }: SendText) =>
      api.post<unknown>(`/messages/${ticketId}`, { body, fromMe: true, read: true, mediaUrl: mediaUrl ?? undefined, quotedMsg: quotedMsg ? { id: quotedMsg.id } : undefined }),
    onSuccess: (result) => {
      if (isMessage(result)) upsertMessage(qc, result);
    },
  });
};

export const useSendMedia = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, files, body }: { ticketId: number; files: File[]; body?: string }) => {
      const form = new FormData();
      form.append("fromMe", "true");
      for (const file of files) form.append("medias", file, file.name);
      if (body) form.append("body", body);
      return api.post<unknown>(`/messages/${ticketId}`, form);
    },
    onSuccess: (result) => {
      for (const item of Array.isArray(result) ? result : [result]) if (isMessage(item)) upsertMessage(qc, item);
    },
  });
};

/** POST /messages/edit/{id} {body}: own messages only. */
export const useEditMessage = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) => api.post<unknown>(`/messages/edit/${encodeURIComponent(id)}`, { body, fromMe: true, read: true }),
    onSuccess: (result) => {
      if (isMessage(result)) upsertMessage(qc, result);
    },
  });
};

/** DELETE /messages/{id}: own messages only; the row stays with the deleted marker. */
export const useDeleteMessage = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (message: MessageView) => api.delete<unknown>(`/messages/${encodeURIComponent(message.id)}`),
    onSuccess: (result, message) => upsertMessage(qc, isMessage(result) ? result : { ...message, isDeleted: true }),
  });
};

/** POST /messages/{id}/reactions {type}. */
export const useReact = () =>
  useMutation({ mutationFn: ({ id, type }: { id: string; type: string }) => api.post<unknown>(`/messages/${encodeURIComponent(id)}/reactions`, { type }) });

/** POST /message/forward {messageId, contactId, signMessage}. */
export const forwardMessage = (input: { messageId: string; contactId: number; signMessage: boolean }) => api.post<unknown>("/message/forward", input);
