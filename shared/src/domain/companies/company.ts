import type { Recurrence } from "../../constants/business";
import type { ScheduleEntry } from "../queues/queues";

/** A company as stored (GET /companies answers a view of it with its plan and settings). */
export type Company = {
  id: number;
  name: string;
  email: string;
  phone: string;
  planId: number | null;
  status: boolean;
  dueDate: string | null;
  recurrence: Recurrence;
  timezone: string;
  trialExpiration: string | null;
  document: string;
  billingName?: string;
  addressZipCode?: string;
  addressStreet?: string;
  addressState?: string;
  addressCity?: string;
  addressDistrict?: string;
  /** company working hours (schedule type 'company') */
  schedules?: ScheduleEntry[];
  createdAt: string;
  updatedAt: string;
};
export type NewCompany = Omit<Company, "id" | "createdAt" | "updatedAt">;

