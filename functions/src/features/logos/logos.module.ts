import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { logosRoutes } from "./logos.routes";
import { createLogosService, type LogosService } from "./logos.service";

/** Logos: /settings/media-upload and /public/* (docs/adr/0024-feature-modules.md). */
export const createLogosModule = (deps: Parameters<typeof createLogosService>[0] & { guards: Guards }): FeatureModule<LogosService> => {
  const service = createLogosService(deps);
  return { service, routes: [{ path: "/", app: logosRoutes(service, deps.guards) }] };
};
