import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { AgentEventData, AgentStatusInput, AgentView, PauseReason, QueueDistribution } from "@atende/shared/contracts/http/service-levels";
import type { UserEventData } from "@atende/shared/contracts/http/users";
import { api } from "../../../lib/api-client";
import { useRealtime } from "../../../lib/realtime";

/** Agent status, pause reasons, capacity and queue distribution (docs/adr/0032). Keys used by this feature only. */
export const agentKeys = {
  all: ["agents"] as const,
  me: () => [...agentKeys.all, "me"] as const,
  list: () => [...agentKeys.all, "list"] as const,
  reasons: () => [...agentKeys.all, "pauseReasons"] as const,
  distribution: (queueId: number) => [...agentKeys.all, "distribution", queueId] as const,
};

export const useMyAgent = () => useQuery(queryOptions({ queryKey: agentKeys.me(), queryFn: () => api.get<AgentView>("/agents/me") }));
export const useAgents = (enabled = true) => useQuery({ queryKey: agentKeys.list(), queryFn: () => api.get<AgentView[]>("/agents"), enabled });
export const usePauseReasons = () => useQuery({ queryKey: agentKeys.reasons(), queryFn: () => api.get<PauseReason[]>("/pause-reasons") });

/** An attendant's status event (company-{id}-user, action "status"): the panel row and, when it is mine, my switch. */
export const applyAgentEvent = (qc: QueryClient, event: AgentEventData, myId: number) => {
  const agent = event.agent;
  qc.setQueryData<AgentView[]>(agentKeys.list(), (list) => (list ? list.map((a) => (a.userId === agent.userId ? agent : a)) : list));
  if (agent.userId === myId) qc.setQueryData(agentKeys.me(), agent);
};
export const useAgentEvents = (myId: number) => {
  const qc = useQueryClient();
  useRealtime<UserEventData>("user", (data) => {
    if (data.action === "status") applyAgentEvent(qc, data, myId);
  });
};

export const useSetMyStatus = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AgentStatusInput) => api.put<AgentView>("/agents/me/status", input),
    onSuccess: (agent) => qc.setQueryData(agentKeys.me(), agent),
  });
};
export const useSetCapacity = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, capacity }: { userId: number; capacity: number | null }) => api.put<AgentView>(`/agents/${userId}`, { capacity }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: agentKeys.list() }),
  });
};
export const useAgentCapacity = (userId: number) =>
  useQuery({ queryKey: agentKeys.list(), queryFn: () => api.get<AgentView[]>("/agents"), select: (list) => list.find((a) => a.userId === userId) ?? null });

export const useSavePauseReason = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id?: number; name: string }) => (id ? api.put<PauseReason>(`/pause-reasons/${id}`, { name }) : api.post<PauseReason>("/pause-reasons", { name })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: agentKeys.reasons() }),
  });
};
export const useRemovePauseReason = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/pause-reasons/${id}`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: agentKeys.reasons() }),
  });
};

export const useQueueDistribution = (queueId: number) =>
  useQuery({ queryKey: agentKeys.distribution(queueId), queryFn: () => api.get<QueueDistribution>(`/distribution/queues/${queueId}`) });
export const useSaveQueueDistribution = (queueId: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: QueueDistribution) => api.put<QueueDistribution>(`/distribution/queues/${queueId}`, input),
    onSuccess: (saved) => qc.setQueryData(agentKeys.distribution(queueId), saved),
  });
};
