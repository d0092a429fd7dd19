import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { CompaniesRepository } from "./companies.repository";
import { companiesRoutes } from "./companies.routes";
import { createCompaniesService, type CompaniesService } from "./companies.service";

/**
 * The companies feature (docs/adr/0024-feature-modules.md). Built before the Guards object exists (its
 * assertPlanAllows is the plan guard), so its routes take only the auth guard.
 */
export const createCompaniesModule = (
  deps: Omit<Parameters<typeof createCompaniesService>[0], "companies"> & { repository: CompaniesRepository; guards: Pick<Guards, "auth"> },
): FeatureModule<CompaniesService> => {
  const service = createCompaniesService({ ...deps, companies: deps.repository });
  return { service, routes: [{ path: "/companies", app: companiesRoutes(service, deps.guards) }] };
};
