import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CompanyPlanResponse } from "@atende/shared/contracts/http/companies";
import { api } from "../../../lib/api-client";
import { companyRecordKeys } from "../../../lib/query-keys";

/** GET /companies/listPlan/{companyId}: the company's plan (flags gate menu items and pages). */
export const getCompanyPlan = (companyId: number): Promise<CompanyPlanResponse> => api.get<CompanyPlanResponse>(`/companies/listPlan/${companyId}`);

export const companyPlanQueryOptions = (companyId: number) =>
  queryOptions({ queryKey: companyRecordKeys.plan(companyId), queryFn: () => getCompanyPlan(companyId), staleTime: 5 * 60_000 });

export const useCompanyPlan = (companyId: number | undefined) =>
  useQuery({ ...companyPlanQueryOptions(companyId ?? 0), enabled: companyId !== undefined });
