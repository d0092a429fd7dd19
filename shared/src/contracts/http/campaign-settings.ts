/** One stored setting as GET /campaign-settings lists it: `value` is JSON text (spec 3 "Campaign settings"). */
export type CampaignSettingRecord = { key: "messageInterval" | "longerIntervalAfter" | "greaterInterval" | "variables"; value: string; companyId: number };

/** GET /campaign-settings and POST /campaign-settings answer. */
export type CampaignSettingsResponse = CampaignSettingRecord[];
