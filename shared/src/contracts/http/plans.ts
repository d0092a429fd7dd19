import type { Plan } from "../../domain/plans/plan";

export type PlanResponse = Plan;
/** GET /plans/list (public, for sign-up): no internal fields. */
export type PublicPlanResponse = Pick<Plan, "id" | "name" | "users" | "connections" | "queues" | "value">;
