import type { Plan } from "../../domain/plans/plan";

/** GET /companies/listPlan/{companyId} */
export type CompanyPlanResponse = {
  id: number;
  name: string;
  dueDate: string | null;
  plan: Plan;
};

/** A company as the operator's table and form see it. */
export type CompanyResponse = {
  id: number;
  name: string;
  email: string;
  phone: string;
  planId: number | null;
  plan: { id: number; name: string } | null;
  status: boolean;
  campaignsEnabled: boolean;
  /**
   * The company's settings as the spec's operator editor reads them (`settings.find((s) => s.key === "campaignsEnabled")`).
   * Only the keys that editor reads: the company's other settings (integration tokens among them) stay its own.
   */
  settings: { key: string; value: string }[];
  dueDate: string | null;
  recurrence: string;
  timezone: string;
  trialExpiration: string | null;
  createdAt: string;
  billingName?: string;
  addressZipCode?: string;
  addressStreet?: string;
  addressState?: string;
  addressCity?: string;
  addressDistrict?: string;
  schedules?: { weekday: string; weekdayEn: string; startTime: string; endTime: string }[];
};
