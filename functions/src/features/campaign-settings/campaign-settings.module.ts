import type { Db } from "../../platform/db/client";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createCampaignSettingsRepository } from "./campaign-settings.repository";
import { campaignSettingsRoutes } from "./campaign-settings.routes";
import { createCampaignSettingsService, type CampaignSettingsService } from "./campaign-settings.service";

/** The campaign-settings feature (docs/adr/0024-feature-modules.md). */
export const createCampaignSettingsModule = (deps: Omit<Parameters<typeof createCampaignSettingsService>[0], "settings"> & { db: Db; guards: Guards }): FeatureModule<CampaignSettingsService> => {
  const service = createCampaignSettingsService({ ...deps, settings: createCampaignSettingsRepository(deps.db) });
  return { service, routes: [{ path: "/campaign-settings", app: campaignSettingsRoutes(service, deps.guards) }] };
};
