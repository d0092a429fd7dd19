import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PushPreferencesBody } from "@atende/shared/contracts/http/push";
import { api } from "../../../lib/api-client";

const prefsKey = ["push", "preferences"] as const;

/** GET /push/preferences: what the user wants pushed and their quiet hours. */
export const usePushPreferences = () => useQuery({ queryKey: prefsKey, queryFn: () => api.get<PushPreferencesBody>("/push/preferences") });

export const useSavePushPreferences = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (prefs: PushPreferencesBody) => api.put<PushPreferencesBody>("/push/preferences", prefs),
    onSuccess: (saved) => qc.setQueryData(prefsKey, saved),
  });
};
