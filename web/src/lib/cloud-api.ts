import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PhoneNumberInfo } from "@atende/shared/domain/cloud-api/cloud-api-connection";
import type { MessageTemplate } from "@atende/shared/domain/cloud-api/message-templates";
import type { ReplyWindow } from "@atende/shared/domain/cloud-api/reply-window";
import { api } from "./api-client";

/** Cloud API connections: the test, templates and a ticket's 24-hour window (/api/cloud-api, docs/cloud-api.md). */
export const cloudApiKeys = {
  all: ["cloudApi"] as const,
  templates: (whatsappId: number) => [...cloudApiKeys.all, "templates", whatsappId] as const,
  window: (ticketId: number) => [...cloudApiKeys.all, "window", ticketId] as const,
};

export type StoredTemplate = MessageTemplate & { whatsappId: number; syncedAt: string };
export type CheckResult = { ok: true; info: PhoneNumberInfo } | { ok: false; error: string };

export const useTemplates = (whatsappId: number | null) =>
  useQuery({ queryKey: cloudApiKeys.templates(whatsappId ?? 0), queryFn: () => api.get<StoredTemplate[]>(`/cloud-api/${whatsappId}/templates`), enabled: whatsappId !== null });

export const useSyncTemplates = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (whatsappId: number) => api.post<StoredTemplate[]>(`/cloud-api/${whatsappId}/templates/sync`),
    onSuccess: (list, whatsappId) => qc.setQueryData(cloudApiKeys.templates(whatsappId), list),
  });
};

export const useTestConnection = () => useMutation({ mutationFn: (whatsappId: number) => api.post<CheckResult>(`/cloud-api/${whatsappId}/test`) });

/** The ticket's window, re-read every minute (the countdown itself ticks locally). */
export const useTicketWindow = (ticketId: number | null, enabled: boolean) =>
  useQuery({
    queryKey: cloudApiKeys.window(ticketId ?? 0),
    queryFn: () => api.get<ReplyWindow>(`/cloud-api/tickets/${ticketId}/window`),
    enabled: enabled && ticketId !== null,
    refetchInterval: 60_000,
  });
