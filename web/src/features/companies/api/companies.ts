import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CompanyResponse } from "@atende/shared/contracts/http/companies";
import type { Plan } from "@atende/shared/domain/plans/plan";
import { api } from "../../../lib/api-client";
import { planKeys } from "../../../lib/query-keys";

/** The operator's companies (spec 2 section 7 "Companies"). */
export const companyKeys = { all: ["companies", "admin"] as const, list: () => [...companyKeys.all, "list"] as const };

export const companiesListOptions = () =>
  queryOptions({ queryKey: companyKeys.list(), queryFn: () => api.get<CompanyResponse[]>("/companies/list"), meta: { silentError: true } });
export const useCompaniesList = () => useQuery(companiesListOptions());

/** GET /plans/all: the plan picker of the company form. */
export const allPlansOptions = () => queryOptions({ queryKey: planKeys.all, queryFn: () => api.get<Plan[]>("/plans/all") });
export const useAllPlans = () => useQuery(allPlansOptions());

export type CompanyFormValues = {
  name: string;
  email: string;
  phone: string;
  planId: number | "";
  status: boolean;
  campaignsEnabled: boolean;
  dueDate: string | null;
  recurrence: string;
};

export const useSaveCompany = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: CompanyFormValues }) =>
      id ? api.put<CompanyResponse>(`/companies/${id}`, input) : api.post<CompanyResponse>("/companies", input),
    onSuccess: () => qc.invalidateQueries({ queryKey: companyKeys.list() }),
    meta: { silentError: true },
  });
};

export const useDeleteCompany = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/companies/${id}`), onSuccess: () => qc.invalidateQueries({ queryKey: companyKeys.list() }), meta: { silentError: true } });
};
