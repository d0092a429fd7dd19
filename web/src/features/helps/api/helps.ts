import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { HelpResponse } from "@atende/shared/contracts/http/helps";
import { api } from "../../../lib/api-client";

export const helpKeys = { all: ["helps"] as const };
/** GET /helps/list */
export const helpsQueryOptions = () => queryOptions({ queryKey: helpKeys.all, queryFn: () => api.get<HelpResponse[]>("/helps/list") });
export const useHelps = () => useQuery(helpsQueryOptions());

export type HelpInput = { title: string; description: string; video: string };

export const useSaveHelp = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: HelpInput }) => (id ? api.put<HelpResponse>(`/helps/${id}`, input) : api.post<HelpResponse>("/helps", input)),
    onSuccess: () => qc.invalidateQueries({ queryKey: helpKeys.all }),
    meta: { silentError: true },
  });
};

export const useDeleteHelp = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/helps/${id}`), onSuccess: () => qc.invalidateQueries({ queryKey: helpKeys.all }), meta: { silentError: true } });
};

/** The YouTube id of a code or a watch/share URL. */
export const videoId = (video: string) => {
  const v = video.trim();
  const match = /(?:v=|youtu\.be\/|embed\/)([\w-]{6,})/.exec(v);
  return match?.[1] ?? v;
};
