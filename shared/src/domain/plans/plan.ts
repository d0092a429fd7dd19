import { z } from "zod";
import { moneySchema } from "../money/money";

export const PLAN_FLAGS = [
  "useCampaigns",
  "useSchedules",
  "useInternalChat",
  "useExternalApi",
  "useKanban",
  "useOpenAi",
  "useIntegrations",
] as const;
export type PlanFlag = (typeof PLAN_FLAGS)[number];
export type PlanFlags = Record<PlanFlag, boolean>;

export const planSchema = z.object({
  name: z.string().trim().min(1).max(50),
  users: z.coerce.number().int().min(0).max(1_000_000),
  connections: z.coerce.number().int().min(0).max(1_000_000),
  queues: z.coerce.number().int().min(0).max(1_000_000),
  value: moneySchema,
  useCampaigns: z.boolean().default(true),
  useSchedules: z.boolean().default(true),
  useInternalChat: z.boolean().default(true),
  useExternalApi: z.boolean().default(true),
  useKanban: z.boolean().default(true),
  useOpenAi: z.boolean().default(true),
  useIntegrations: z.boolean().default(true),
  useInternal: z.boolean().default(true),
});
export type PlanInput = z.infer<typeof planSchema>;
export type Plan = PlanInput & { id: number; createdAt: string; updatedAt: string };

export const planFlagsOf = (plan: Partial<PlanFlags> | null | undefined): PlanFlags =>
  Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, plan?.[flag] === true])) as PlanFlags;

export type PlanLimit = "users" | "connections" | "queues";

/** True when one more record of `kind` would go over the plan. */
export const isOverPlanLimit = (plan: Pick<Plan, PlanLimit>, kind: PlanLimit, currentCount: number): boolean =>
  currentCount + 1 > plan[kind];
