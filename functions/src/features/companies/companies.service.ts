import type { CompanyPlanResponse } from "@atende/shared/contracts/http/companies";
import type { PlanFlag } from "@atende/shared/domain/plans/plan";
import { AppError } from "../../platform/errors";
import type { AuthContext } from "../auth/auth.service";
import type { PlansRepository } from "../plans/plans.repository";
import type { CompaniesRepository } from "./companies.repository";

export const createCompaniesService = (deps: { companies: CompaniesRepository; plans: PlansRepository }) => {
  const { companies, plans } = deps;
  return {
    /** GET /companies/listPlan/{companyId}: own company only, unless the caller is the operator. */
    async listPlan(auth: AuthContext, companyId: number): Promise<CompanyPlanResponse> {
      if (companyId !== auth.companyId && !auth.user.super) throw new AppError("ERR_NO_PERMISSION");
      const company = await companies.findById(companyId);
      if (!company) throw new AppError("ERR_NOT_FOUND");
      const plan = company.planId ? await plans.findById(company.planId) : null;
      if (!plan) throw new AppError("ERR_NOT_FOUND");
      return { id: company.id, name: company.name, dueDate: company.dueDate, plan };
    },
    /** Server-side plan gating: a feature whose flag is off answers ERR_NO_PERMISSION on every call. */
    async assertPlanAllows(companyId: number, flag: PlanFlag): Promise<void> {
      const company = await companies.findById(companyId);
      const plan = company?.planId ? await plans.findById(company.planId) : null;
      if (!plan || plan[flag] !== true) throw new AppError("ERR_NO_PERMISSION");
    },
  };
};
export type CompaniesService = ReturnType<typeof createCompaniesService>;
