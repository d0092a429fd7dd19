import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Plan, PlanInput } from "@atende/shared/domain/plans/plan";
import { api } from "../../../lib/api-client";
import { planKeys } from "../../../lib/query-keys";

/** The operator's plans: list, save, update, remove, find by id. */
export const plansAdminOptions = () => queryOptions({ queryKey: planKeys.admin, queryFn: () => api.get<Plan[]>("/plans"), meta: { silentError: true } });
export const usePlansAdmin = () => useQuery(plansAdminOptions());

export const useSavePlan = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: PlanInput }) => (id ? api.put<Plan>(`/plans/${id}`, input) : api.post<Plan>("/plans", input)),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: planKeys.admin });
      void qc.invalidateQueries({ queryKey: planKeys.all });
    },
    meta: { silentError: true },
  });
};

export const useDeletePlan = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/plans/${id}`), onSuccess: () => qc.invalidateQueries({ queryKey: planKeys.admin }), meta: { silentError: true } });
};
