import { queryOptions, useQuery } from "@tanstack/react-query";
import type { VersionResponse } from "@atende/shared/contracts/http/auth";
import { api } from "../../../lib/api-client";
import { appKeys } from "../../../lib/query-keys";

/** GET /version: shown at the bottom of the side menu. */
export const getVersion = (): Promise<VersionResponse> => api.get<VersionResponse>("/version", { auth: false });

export const versionQueryOptions = () => queryOptions({ queryKey: appKeys.version(), queryFn: getVersion, staleTime: Infinity, meta: { silentError: true } });

export const useVersion = () => useQuery(versionQueryOptions());
