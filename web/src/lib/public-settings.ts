import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PublicSettingsResponse } from "@atende/shared/contracts/http/settings";
import { api } from "./api-client";
import { appKeys } from "./query-keys";

/** GET /public/settings: sign-up switches and the uploaded logos, readable before login. */
export const publicSettingsQueryOptions = () =>
  queryOptions({ queryKey: appKeys.publicSettings(), queryFn: () => api.get<PublicSettingsResponse>("/public/settings", { auth: false }), staleTime: 60_000, meta: { silentError: true } });
export const usePublicSettings = () => useQuery(publicSettingsQueryOptions());
