import type { FeatureModule } from "../../platform/modules/feature-module";
import { externalMessagesRoutes } from "./external-api.routes";
import { createExternalApiService, type ExternalApiService } from "./external-api.service";

/** POST /messages/send with a connection token (mounted before the inbox's /messages; docs/adr/0024-feature-modules.md). */
export const createExternalApiModule = (deps: Parameters<typeof createExternalApiService>[0]): FeatureModule<ExternalApiService> => {
  const service = createExternalApiService(deps);
  return { service, routes: [{ path: "/messages", app: externalMessagesRoutes(service) }] };
};
