import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SessionUser } from "@atende/shared/contracts/http/auth";
import { api } from "../api-client";
import { sessionKeys } from "../query-keys";

/** GET /auth/me: the signed-in user with company and settings. Invalidate this key to reload the session user. */
export const getMe = (): Promise<SessionUser> => api.get<SessionUser>("/auth/me");

export const meQueryOptions = () => queryOptions({ queryKey: sessionKeys.me(), queryFn: getMe, staleTime: 5 * 60_000, meta: { silentError: true } });

export const useMe = (enabled = true) => useQuery({ ...meQueryOptions(), enabled });
