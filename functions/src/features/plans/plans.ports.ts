import type { PlansRepository } from "./plans.repository";

/** Narrow ports the plans feature publishes (its repository implements them; docs/adr/0024-feature-modules.md). */
export type PlanLookup = Pick<PlansRepository, "findById">;
export type PlanCatalog = Pick<PlansRepository, "findById" | "listAll">;
export type PlanCreation = Pick<PlansRepository, "create">;
