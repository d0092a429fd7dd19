import type { PublicPlanResponse } from "@atende/shared/contracts/http/plans";
import type { Plan, PlanInput } from "@atende/shared/domain/plans/plan";
import { AppError } from "../../platform/errors";
import type { CompanyPages } from "../companies/companies.ports";
import type { PlansRepository } from "./plans.repository";

export const createPlansService = (deps: { plans: PlansRepository; companies: CompanyPages; clock: () => Date }) => {
  const { plans, companies, clock } = deps;
  const byName = (a: Plan, b: Plan) => a.value - b.value || a.name.localeCompare(b.name);

  const findOrFail = async (id: number) => {
    const plan = await plans.findById(id);
    if (!plan) throw new AppError("ERR_NOT_FOUND");
    return plan;
  };

  /** True when some company is on the plan (operator call: pages through the companies). */
  const inUse = async (planId: number) => {
    let cursor: string | undefined;
    do {
      const page = await companies.listPage(100, cursor);
      if (page.items.some((c) => c.planId === planId)) return true;
      cursor = page.cursor;
    } while (cursor);
    return false;
  };

  return {
    /** GET /plans/list and /plans/register (public): what a prospect may choose. */
    async listPublic(): Promise<PublicPlanResponse[]> {
      return (await plans.listAll()).sort(byName).map(({ id, name, users, connections, queues, value }) => ({ id, name, users, connections, queues, value }));
    },
    async listAll(): Promise<Plan[]> {
      return (await plans.listAll()).sort(byName);
    },
    async get(id: number): Promise<Plan> {
      return findOrFail(id);
    },
    async create(input: PlanInput): Promise<Plan> {
      const all = await plans.listAll();
      if (all.some((p) => p.name.toLowerCase() === input.name.toLowerCase())) throw new AppError("ERR_DUPLICATED_NAME");
      return plans.create(input, clock());
    },
    async update(id: number, input: PlanInput): Promise<Plan> {
      const before = await findOrFail(id);
      const all = await plans.listAll();
      if (all.some((p) => p.id !== id && p.name.toLowerCase() === input.name.toLowerCase())) throw new AppError("ERR_DUPLICATED_NAME");
      const plan: Plan = { ...before, ...input, id, updatedAt: clock().toISOString() };
      await plans.update(plan);
      return plan;
    },
    /** A plan some company is on cannot go (its companies would lose every feature). */
    async remove(id: number): Promise<void> {
      await findOrFail(id);
      if (await inUse(id)) throw new AppError("ERR_VALIDATION", { reason: "plan-in-use" });
      await plans.remove(id);
    },
  };
};
export type PlansService = ReturnType<typeof createPlansService>;
