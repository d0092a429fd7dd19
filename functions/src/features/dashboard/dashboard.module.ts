import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { dashboardRoutes } from "./dashboard.routes";
import { createDashboardService, type DashboardService } from "./dashboard.service";

/** The dashboard (docs/adr/0024-feature-modules.md). */
export const createDashboardModule = (deps: Parameters<typeof createDashboardService>[0] & { guards: Guards }): FeatureModule<DashboardService> => {
  const service = createDashboardService(deps);
  return { service, routes: [{ path: "/dashboard", app: dashboardRoutes(service, deps.guards) }] };
};
