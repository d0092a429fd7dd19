import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import type { SupervisorOverview } from "@atende/shared/contracts/http/supervisor";
import { api } from "../../../lib/api-client";
import { onRealtimeOpen, useRealtime } from "../../../lib/realtime";

export const supervisorKeys = {
  all: ["supervisor"] as const,
  overview: () => [...supervisorKeys.all, "overview"] as const,
};

/** The fallback poll when no event arrives (issue 34: never faster than 30 s). */
export const OVERVIEW_POLL_MS = 30_000;
/** Events within this window refresh the overview once (a burst of ticket events is one read). */
export const OVERVIEW_EVENT_COALESCE_MS = 1_500;

/** GET /supervisor/overview */
export const overviewOptions = () =>
  queryOptions({
    queryKey: supervisorKeys.overview(),
    queryFn: () => api.get<SupervisorOverview>("/supervisor/overview"),
    refetchInterval: OVERVIEW_POLL_MS,
  });

/**
 * The cockpit's figures, live: every ticket, agent-status (`user`) and SLA event of the company re-reads the overview
 * (coalesced), and so does a socket that opens again; the 30-s poll is only the fallback.
 */
export const useLiveOverview = () => {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refresh = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void client.invalidateQueries({ queryKey: supervisorKeys.overview() });
    }, OVERVIEW_EVENT_COALESCE_MS);
  }, [client]);
  useRealtime("ticket", refresh);
  useRealtime("user", refresh);
  useRealtime("sla", refresh);
  useEffect(() => onRealtimeOpen(() => refresh()), [refresh]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useQuery(overviewOptions());
};
