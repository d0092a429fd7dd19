import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { PublicPlanResponse } from "@atende/shared/contracts/http/plans";
import type { SignupInput } from "@atende/shared/domain/companies/companies";
import { api } from "../../../lib/api-client";
import { planKeys } from "../../../lib/query-keys";

/** GET /plans/list (public): the plans a prospect may choose. */
export const publicPlansQueryOptions = () =>
  queryOptions({ queryKey: planKeys.public, queryFn: () => api.get<PublicPlanResponse[]>("/plans/list", { auth: false }) });
export const usePublicPlans = () => useQuery(publicPlansQueryOptions());


/** POST /companies/cadastro (public). */
export const useSignup = () =>
  useMutation({ mutationFn: (input: SignupInput) => api.post<{ id: number }>("/companies/cadastro", input, { auth: false }), meta: { silentError: true } });
