import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/**
 * GET /api/session-hosts (platform operator only, issue 29): the session hosts alive, what each holds. The shape
 * of the route's answer (shared/contracts/http/session-hosts.ts `SessionHostResponse`, with the route): the pid of
 * the process, its capacity, whether it drains, the epoch ms of its last registry heartbeat, its connections.
 */
export type SessionHostConnection = { companyId: number; whatsappId: number; status: string };
export type SessionHostView = {
  hostId: string;
  pid: number;
  capacity: number;
  draining: boolean;
  lastHeartbeatAt: number;
  connections: SessionHostConnection[];
};

export const sessionHostKeys = { all: ["session-hosts"] as const, list: () => [...sessionHostKeys.all, "list"] as const };

/** refreshed every 5 s: a host's death or drain shows within a heartbeat or two */
export const sessionHostsOptions = () =>
  queryOptions({ queryKey: sessionHostKeys.list(), queryFn: () => api.get<SessionHostView[]>("/session-hosts"), refetchInterval: 5_000, meta: { silentError: true } });
export const useSessionHosts = () => useQuery(sessionHostsOptions());
