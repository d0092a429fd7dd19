import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { SettingsRepository } from "./settings.repository";
import { settingsRoutes } from "./settings.routes";
import { createSettingsService, type SettingsService } from "./settings.service";

/** Company settings (docs/adr/0024-feature-modules.md). */
export const createSettingsModule = (deps: Omit<Parameters<typeof createSettingsService>[0], "settings"> & { repository: SettingsRepository; guards: Guards }): FeatureModule<SettingsService> => {
  const service = createSettingsService({ ...deps, settings: deps.repository });
  return { service, routes: [{ path: "/settings", app: settingsRoutes(service, deps.guards) }] };
};
