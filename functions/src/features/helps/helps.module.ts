import type { Db } from "../../platform/db/client";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createHelpsRepository } from "./helps.repository";
import { helpsRoutes } from "./helps.routes";
import { createHelpsService, type HelpsService } from "./helps.service";

/** The helps feature (docs/adr/0024-feature-modules.md). */
export const createHelpsModule = (deps: Omit<Parameters<typeof createHelpsService>[0], "helps"> & { db: Db; guards: Guards }): FeatureModule<HelpsService> => {
  const service = createHelpsService({ ...deps, helps: createHelpsRepository(deps.db) });
  return { service, routes: [{ path: "/helps", app: helpsRoutes(service, deps.guards) }] };
};
