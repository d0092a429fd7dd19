import * as z from "zod";
import { flag, num } from "../../contracts/body-values";
import { moneySchema } from "../money/money";

// kept here for existing importers; the web app's entry imports ./plan-flags (no zod on the first screen)
export { PLAN_FLAGS, planFlagsOf } from "./plan-flags";
export type { PlanFlag, PlanFlags } from "./plan-flags";

export const planSchema = z.object({
  name: z.string().trim().min(1).max(50),
  users: num(z.number().int().min(0).max(1_000_000)),
  connections: num(z.number().int().min(0).max(1_000_000)),
  queues: num(z.number().int().min(0).max(1_000_000)),
  value: moneySchema,
  useCampaigns: flag().default(true),
  useSchedules: flag().default(true),
  useInternalChat: flag().default(true),
  useExternalApi: flag().default(true),
  useKanban: flag().default(true),
  useOpenAi: flag().default(true),
  useIntegrations: flag().default(true),
  useInternal: flag().default(true),
});
export type PlanInput = z.infer<typeof planSchema>;
export type Plan = PlanInput & { id: number; createdAt: string; updatedAt: string };


export type PlanLimit = "users" | "connections" | "queues";

/** True when one more record of `kind` would go over the plan. */
export const isOverPlanLimit = (plan: Pick<Plan, PlanLimit>, kind: PlanLimit, currentCount: number): boolean =>
  currentCount + 1 > plan[kind];
