import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";
import type { WhatsappFormInput } from "@atende/shared/domain/whatsapps/whatsapp-form";
import { api } from "../../../lib/api-client";
import { whatsappKeys } from "../../../lib/query-keys";

/** Connections (spec 2 section 7 "Connections"). */

export const whatsappQueryOptions = (id: number) =>
  queryOptions({ queryKey: whatsappKeys.one(id), queryFn: () => api.get<WhatsappResponse>(`/whatsapp/${id}`, { query: { session: 0 } }) });
export const useWhatsapp = (id: number | null) => useQuery({ ...whatsappQueryOptions(id ?? 0), enabled: id !== null });

/** Puts a connection's new state in every cached list and detail (realtime events, mutation answers). */
export const putWhatsappInCache = (qc: ReturnType<typeof useQueryClient>, w: WhatsappResponse) => {
  qc.setQueryData<WhatsappResponse[]>(whatsappKeys.list(), (list) => {
    if (!list) return list;
    const others = list.filter((x) => x.id !== w.id);
    // another connection becoming the default clears the flag here too
    return [...others.map((x) => (w.isDefault ? { ...x, isDefault: false } : x)), w].sort((a, b) => a.id - b.id);
  });
  qc.setQueryData(whatsappKeys.one(w.id), w);
};

export const removeWhatsappFromCache = (qc: ReturnType<typeof useQueryClient>, id: number) =>
  qc.setQueryData<WhatsappResponse[]>(whatsappKeys.list(), (list) => list?.filter((x) => x.id !== id));

export const useSaveWhatsapp = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: WhatsappFormInput }) =>
      id ? api.put<WhatsappResponse>(`/whatsapp/${id}`, input) : api.post<WhatsappResponse>("/whatsapp", input),
    onSuccess: (w) => {
      putWhatsappInCache(qc, w);
      void qc.invalidateQueries({ queryKey: whatsappKeys.list() });
    },
  });
};

export const useDeleteWhatsapp = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/whatsapp/${id}`),
    onSuccess: (_r, id) => {
      removeWhatsappFromCache(qc, id);
      void qc.invalidateQueries({ queryKey: whatsappKeys.list() });
    },
  });
};

export type SessionAction = "start" | "newQr" | "disconnect";
const SESSION_METHOD: Record<SessionAction, "post" | "put" | "delete"> = { start: "post", newQr: "put", disconnect: "delete" };

/** POST (start / try again), PUT (new QR), DELETE (disconnect) /whatsappsession/{id}. */
export const useSessionAction = () =>
  useMutation({ mutationFn: ({ id, action }: { id: number; action: SessionAction }) => api[SESSION_METHOD[action]](`/whatsappsession/${id}`) });

/** POST /whatsappsession/{id}/pairingcode: link by phone number; the code arrives on the connection (realtime). */
export const useRequestPairingCode = () =>
  useMutation({ mutationFn: ({ id, number }: { id: number; number: string }) => api.post<{ message: string }>(`/whatsappsession/${id}/pairingcode`, { number }) });

export const useRestartWhatsapps = () => useMutation({ mutationFn: () => api.post("/whatsapp-restart/") });

/** Pick-lists for the integrations tab; a feature that does not exist yet simply gives an empty list. */
export const usePickList = (path: "/prompt" | "/queueIntegration") =>
  useQuery({
    queryKey: whatsappKeys.picklist(path),
    queryFn: async () => {
      const res = await api.get<unknown>(path);
      const list = Array.isArray(res) ? res : ((res as { prompts?: unknown[]; queueIntegrations?: unknown[] }).prompts ?? (res as { queueIntegrations?: unknown[] }).queueIntegrations ?? []);
      return (list as { id: number; name: string }[]).map(({ id, name }) => ({ id, name }));
    },
    retry: false,
    meta: { silentError: true },
  });
