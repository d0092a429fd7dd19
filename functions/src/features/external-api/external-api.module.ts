import type { Db } from "../../platform/db/client";
import type { FeatureModule } from "../../platform/modules/feature-module";
import { createApiRateRepository } from "./api-rate.repository";
import { externalMessagesRoutes } from "./external-api.routes";
import { createExternalApiService, type ExternalApiService } from "./external-api.service";

/** POST /messages/send with a connection token (mounted before the inbox's /messages; docs/adr/0024-feature-modules.md). */
export const createExternalApiModule = (deps: Omit<Parameters<typeof createExternalApiService>[0], "rate"> & { db: Db }): FeatureModule<ExternalApiService> => {
  const service = createExternalApiService({ ...deps, rate: createApiRateRepository(deps.db) });
  return { service, routes: [{ path: "/messages", app: externalMessagesRoutes(service) }] };
};
