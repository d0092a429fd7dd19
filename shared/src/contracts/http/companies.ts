import type { Plan } from "../../domain/plans/plan";

/** GET /companies/listPlan/{companyId} */
export type CompanyPlanResponse = {
  id: number;
  name: string;
  dueDate: string | null;
  plan: Plan;
};
