import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { PlansRepository } from "./plans.repository";
import { plansRoutes } from "./plans.routes";
import { createPlansService, type PlansService } from "./plans.service";

/** Plans (operator; docs/adr/0024-feature-modules.md). */
export const createPlansModule = (deps: Omit<Parameters<typeof createPlansService>[0], "plans"> & { repository: PlansRepository; guards: Guards }): FeatureModule<PlansService> => {
  const service = createPlansService({ ...deps, plans: deps.repository });
  return { service, routes: [{ path: "/plans", app: plansRoutes(service, deps.guards) }] };
};
