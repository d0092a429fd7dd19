import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CompanyResponse } from "@atende/shared/contracts/http/companies";
import { api } from "../../../lib/api-client";

/** The caller's own company (GET /companies/{id}): trialExpiration and the billing email. */
export const ownCompanyOptions = (companyId: number) =>
  queryOptions({ queryKey: ["subscription", "company", companyId] as const, queryFn: () => api.get<CompanyResponse>(`/companies/${companyId}`) });
export const useOwnCompany = (companyId: number) => useQuery(ownCompanyOptions(companyId));
