import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CampaignSettingsResponse } from "@atende/shared/contracts/http/campaign-settings";
import { CAMPAIGN_SETTINGS_DEFAULTS, type CampaignSettings } from "@atende/shared/domain/campaign-settings/campaign-settings";
import { api } from "../../../lib/api-client";

/** The stored key/value records (JSON values) as one settings object, defaults for what is missing or unreadable. */
export const settingsFromRecords = (records: CampaignSettingsResponse): CampaignSettings => {
  const out: CampaignSettings = { ...CAMPAIGN_SETTINGS_DEFAULTS, variables: [] };
  for (const r of records) {
    try {
      const value: unknown = JSON.parse(r.value);
      if (r.key === "variables" && Array.isArray(value)) out.variables = value as CampaignSettings["variables"];
      else if (r.key !== "variables" && typeof value === "number") out[r.key] = value;
    } catch {
      // an unreadable value keeps its default
    }
  }
  return out;
};

export const campaignSettingsKeys = { all: ["campaign-settings"] as const };

export const campaignSettingsOptions = () =>
  queryOptions({ queryKey: campaignSettingsKeys.all, queryFn: async () => settingsFromRecords(await api.get<CampaignSettingsResponse>("/campaign-settings")) });
export const useCampaignSettings = () => useQuery(campaignSettingsOptions());

export const useSaveCampaignSettings = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (settings: CampaignSettings) => api.post<CampaignSettingsResponse>("/campaign-settings", { settings }),
    onSuccess: () => qc.invalidateQueries({ queryKey: campaignSettingsKeys.all }),
  });
};
