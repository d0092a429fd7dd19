import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { CampaignListResponse, CampaignView } from "@atende/shared/contracts/http/campaigns";
import type { CampaignInput } from "@atende/shared/domain/campaigns/campaign";
import { api } from "../../../lib/api-client";

/** Campaigns (spec 3 section 7): list, one, save, delete, cancel/restart, attachment; plus the dialog's pickers. */
export const campaignKeys = {
  all: ["campaigns"] as const,
  list: () => [...campaignKeys.all, "list"] as const,
  one: (id: number) => [...campaignKeys.all, "one", id] as const,
  pickers: ["campaigns", "pickers"] as const,
};

export const campaignsListOptions = () =>
  infiniteQueryOptions({
    queryKey: campaignKeys.list(),
    queryFn: ({ pageParam }) => api.get<CampaignListResponse>("/campaigns/", { query: { pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
export const useCampaignsList = () => useInfiniteQuery(campaignsListOptions());

export const campaignOptions = (id: number) => queryOptions({ queryKey: campaignKeys.one(id), queryFn: () => api.get<CampaignView>(`/campaigns/${id}`) });
export const useCampaign = (id: number) => useQuery(campaignOptions(id));

/** The dialog's choices: the company's contact lists and connections (names only). */
export const campaignPickersOptions = () =>
  queryOptions({
    queryKey: campaignKeys.pickers,
    queryFn: async () => {
      const [lists, whatsapps] = await Promise.all([
        api.get<{ id: number; name: string }[]>("/contact-lists/list"),
        api.get<{ id: number; name: string; provider?: string }[]>("/whatsapp/", { query: { session: 0 } }),
      ]);
      // the provider: a Cloud API connection's campaign sends an approved template instead of the messages
      return { lists: lists.map(({ id, name }) => ({ id, name })), whatsapps: whatsapps.map(({ id, name, provider }) => ({ id, name, provider: provider ?? "beta" })) };
    },
  });
export const useCampaignPickers = () => useQuery(campaignPickersOptions());

export const invalidateCampaigns = (qc: QueryClient) => qc.invalidateQueries({ queryKey: campaignKeys.all });

export const useSaveCampaign = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: CampaignInput }) => (id ? api.put<CampaignView>(`/campaigns/${id}`, input) : api.post<CampaignView>("/campaigns", input)),
    onSuccess: () => invalidateCampaigns(qc),
  });
};

export const useDeleteCampaign = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/campaigns/${id}`), onSuccess: () => invalidateCampaigns(qc) });
};

export const useCampaignAction = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: "cancel" | "restart" }) => api.post<CampaignView>(`/campaigns/${id}/${action}`),
    onSuccess: () => invalidateCampaigns(qc),
  });
};

export const useCampaignMedia = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File | null }) => {
      if (!file) return api.delete<CampaignView>(`/campaigns/${id}/media-upload`);
      const form = new FormData();
      form.append("file", file);
      return api.post<CampaignView>(`/campaigns/${id}/media-upload`, form);
    },
    onSuccess: () => invalidateCampaigns(qc),
  });
};
