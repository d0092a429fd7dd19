/* The plan's feature flags, without zod: the web app's session reads them before anything else (issue 15). */

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

export const planFlagsOf = (plan: Partial<PlanFlags> | null | undefined): PlanFlags =>
  Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, plan?.[flag] === true])) as PlanFlags;
