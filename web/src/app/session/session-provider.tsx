import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useMemo, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { planFlagsOf } from "@atende/shared/domain/plans/plan-flags";
import { useCompanyPlan } from "../../features/auth/api/company-plan";
import { meQueryOptions, useMe } from "../../lib/session/me";
import { onSessionRefreshed } from "../../lib/api-client";
import { resyncOnOpen } from "./resync-on-open";
import { connectRealtime, disconnectRealtime, onRealtimeOpen, useRealtime } from "../../lib/realtime";
import { clearSession, getToken, isRestoring, subscribeSession } from "../../lib/session-storage";
import { toast } from "../../lib/toast";
import { type Session, SessionContext, type SessionState } from "../../lib/session/session-context";

/** Milliseconds between the "opened elsewhere" message and the reload (spec 1 section 4). */
const OTHER_SESSION_RELOAD_MS = 1000;

/**
 * The session: a token in memory means logged in (after a reload the refresh cookie restores it: main.tsx calls
 * restoreSession); the user comes from the login or refresh answer or GET /auth/me (kept in react-query under
 * meQueryOptions), the plan from GET /companies/listPlan/{companyId}.
 * While logged in the tab's realtime socket is open (component tests pass realtime={false}).
 */
export function SessionProvider({ children, realtime = true }: { children: ReactNode; realtime?: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const token = useSyncExternalStore(subscribeSession, getToken);
  const restoring = useSyncExternalStore(subscribeSession, isRestoring);
  const me = useMe(token !== null);
  const user = token ? me.data : undefined;
  const plan = useCompanyPlan(user?.companyId);

  useEffect(() => onSessionRefreshed(({ user: fresh }) => queryClient.setQueryData(meQueryOptions().queryKey, fresh)), [queryClient]);

  const loggedIn = user !== undefined;
  useEffect(() => {
    if (!loggedIn || !realtime) return;
    connectRealtime();
    return disconnectRealtime;
  }, [loggedIn, realtime]);

  // Each time the socket opens (the first time too), what was read before it is read again: its events were lost.
  useEffect(() => onRealtimeOpen((opened) => void resyncOnOpen(queryClient, opened)), [queryClient]);

  useRealtime("auth", () => {
    toast.warning(t("common:otherSession"), 5000);
    disconnectRealtime();
    clearSession();
    setTimeout(() => location.reload(), OTHER_SESSION_RELOAD_MS);
  });

  const isError = me.isError;
  const planSettled = plan.isSuccess || plan.isError;
  const refetch = me.refetch;
  const session = useMemo<Session>(() => {
    const state: SessionState = !token
      ? restoring
        ? { status: "loading" }
        : { status: "anonymous" }
      : user
        ? { status: "authenticated", user }
        : isError
          ? { status: "error", retry: () => void refetch() }
          : { status: "loading" };
    return { ...state, plan: plan.data?.plan, planFlags: planFlagsOf(plan.data?.plan), planSettled };
  }, [token, restoring, user, isError, refetch, plan.data, planSettled]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
