import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CopilotAvailability,
  CopilotRewriteResponse,
  CopilotSettingsInput,
  CopilotSettingsResponse,
  CopilotSuggestionsResponse,
  CopilotSummaryResponse,
  CopilotTestResponse,
  RewriteStyle,
} from "@atende/shared/contracts/http/copilot";
import { api } from "../../lib/api-client";
import i18n from "../../lib/i18n";

/** The attendants' copilot (issue 33): settings (admins), which buttons show, and the calls. */
export const copilotKeys = {
  all: ["copilot"] as const,
  settings: () => [...copilotKeys.all, "settings"] as const,
  features: () => [...copilotKeys.all, "features"] as const,
};

export const useCopilotSettings = () => useQuery({ queryKey: copilotKeys.settings(), queryFn: () => api.get<CopilotSettingsResponse>("/copilot/settings") });
export const useCopilotFeatures = () => useQuery({ queryKey: copilotKeys.features(), queryFn: () => api.get<CopilotAvailability>("/copilot/features"), staleTime: 60_000 });

export const useSaveCopilotSettings = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CopilotSettingsInput) => api.put<CopilotSettingsResponse>("/copilot/settings", input),
    onSuccess: (saved) => {
      qc.setQueryData(copilotKeys.settings(), saved);
      void qc.invalidateQueries({ queryKey: copilotKeys.features() });
    },
  });
};
export const useTestCopilot = () => useMutation({ mutationFn: (input: Partial<CopilotSettingsInput>) => api.post<CopilotTestResponse>("/copilot/settings/test", input) });

/** The attendant's language goes along: the answer comes in it. */
const language = () => ({ language: i18n.language });
export const useCopilotSummary = () => useMutation({ mutationFn: (ticketId: number) => api.post<CopilotSummaryResponse>(`/tickets/${ticketId}/copilot/summary`, language()) });
export const useCopilotSuggestions = () => useMutation({ mutationFn: (ticketId: number) => api.post<CopilotSuggestionsResponse>(`/tickets/${ticketId}/copilot/suggestions`, language()) });
export const useCopilotRewrite = () => useMutation({ mutationFn: (input: { text: string; style: RewriteStyle }) => api.post<CopilotRewriteResponse>("/copilot/rewrite", input) });
