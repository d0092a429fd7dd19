import type { AuthResponse } from "@atende/shared/contracts/http/auth";
import { isTicketsPath } from "./app/router";
import { companyPlanQueryOptions } from "./features/auth/api/company-plan";
import { prefetchTicketLists } from "./features/inbox/tickets/api/tickets-list";
import { restoreSession } from "./lib/api-client";
import { earlyRequestsReady } from "./lib/early-requests";
import { queryClient } from "./lib/query-client";
import { meQueryOptions } from "./lib/session/me";

/**
 * Imported first by main.tsx: the refresh cookie is traded for an access token (the token lives in memory only)
 * while the rest of the entry and the first translations load, not after them — the request itself started even
 * earlier, in public/session-boot.js. With the session back, the data the first screen waits for starts at once,
 * before React has rendered anything: the user and the plan (the layout's gate) and, on /tickets, the first lists
 * (issue 15: first card ≤ 1 s). `sessionRestored` settles with the session (null: signed out) once that is done.
 */
export const sessionRestored: Promise<AuthResponse | null> = restoreSession().then(async (auth) => {
  if (!auth) return null;
  queryClient.setQueryData(meQueryOptions().queryKey, auth.user);
  await earlyRequestsReady();
  void queryClient.prefetchQuery(companyPlanQueryOptions(auth.user.companyId));
  if (isTicketsPath(location.pathname)) void prefetchTicketLists(queryClient);
  return auth;
});
