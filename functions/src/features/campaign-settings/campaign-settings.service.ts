import type { CampaignSettingsResponse } from "@atende/shared/contracts/http/campaign-settings";
import { CAMPAIGN_SETTINGS_DEFAULTS, type CampaignSettings, type CampaignSettingsInput } from "@atende/shared/domain/campaign-settings/campaign-settings";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { CampaignSettingsRepository } from "./campaign-settings.repository";

/** The key/value records the spec's client reads (values are JSON text). */
const toRecords = (companyId: number, s: CampaignSettings): CampaignSettingsResponse => [
  { key: "messageInterval", value: JSON.stringify(s.messageInterval), companyId },
  { key: "longerIntervalAfter", value: JSON.stringify(s.longerIntervalAfter), companyId },
  { key: "greaterInterval", value: JSON.stringify(s.greaterInterval), companyId },
  { key: "variables", value: JSON.stringify(s.variables), companyId },
];

/** Campaign settings (spec 3): pacing intervals and message variables, per company. */
export const createCampaignSettingsService = (deps: { settings: CampaignSettingsRepository; clock: () => Date }) => {
  const { settings, clock } = deps;
  const service = {
    /** The company's settings with the spec's defaults applied (campaign dispatch reads these). */
    async get(companyId: number): Promise<CampaignSettings> {
      const stored = await settings.find(companyId);
      return {
        messageInterval: stored.messageInterval ?? CAMPAIGN_SETTINGS_DEFAULTS.messageInterval,
        longerIntervalAfter: stored.longerIntervalAfter ?? CAMPAIGN_SETTINGS_DEFAULTS.longerIntervalAfter,
        greaterInterval: stored.greaterInterval ?? CAMPAIGN_SETTINGS_DEFAULTS.greaterInterval,
        variables: stored.variables ?? [],
      };
    },
    /** GET /campaign-settings */
    async list(auth: AuthContext): Promise<CampaignSettingsResponse> {
      return toRecords(auth.companyId, await service.get(auth.companyId));
    },
    /** POST /campaign-settings: fields sent replace the stored ones; the others keep their value. */
    async save(auth: AuthContext, input: CampaignSettingsInput): Promise<CampaignSettingsResponse> {
      const current = await service.get(auth.companyId);
      const next: CampaignSettings = {
        messageInterval: input.settings.messageInterval ?? current.messageInterval,
        longerIntervalAfter: input.settings.longerIntervalAfter ?? current.longerIntervalAfter,
        greaterInterval: input.settings.greaterInterval ?? current.greaterInterval,
        variables: input.settings.variables ?? current.variables,
      };
      await settings.put(auth.companyId, next, clock());
      return toRecords(auth.companyId, next);
    },
  };
  return service;
};
export type CampaignSettingsService = ReturnType<typeof createCampaignSettingsService>;
