import * as z from "zod";

/** Spec 3 section 9: the options of the settings screen's selects (seconds or messages, as the screen says). */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;

/** A campaign variable: `{key}` in a campaign message is replaced by `value`. */
export const campaignVariableSchema = z.object({
  key: z.string().trim().min(1, "Required").max(50, "Too Long!"),
  value: z.string().max(1000, "Too Long!"),
});
export type CampaignVariable = z.infer<typeof campaignVariableSchema>;

export type CampaignSettings = {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
  variables: CampaignVariable[];
};

export const CAMPAIGN_SETTINGS_DEFAULTS: CampaignSettings = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] };

const oneOf = (options: readonly number[]) => z.coerce.number().refine((n) => options.includes(n), "Invalid option");

/** POST /campaign-settings body `{ settings }`: every field optional (missing ones keep their stored value). */
export const campaignSettingsSchema = z.object({
  settings: z.object({
    messageInterval: oneOf(MESSAGE_INTERVAL_OPTIONS).optional(),
    longerIntervalAfter: oneOf(LONGER_INTERVAL_OPTIONS).optional(),
    greaterInterval: oneOf(LONGER_INTERVAL_OPTIONS).optional(),
    variables: z
      .array(campaignVariableSchema)
      .max(100)
      .refine((vs) => new Set(vs.map((v) => v.key)).size === vs.length, "Duplicate key")
      .optional(),
  }),
});
export type CampaignSettingsInput = z.infer<typeof campaignSettingsSchema>;

/** Adds a variable only if its key is not present yet (spec 3 section 5); returns null when refused. */
export const addCampaignVariable = (variables: CampaignVariable[], v: CampaignVariable): CampaignVariable[] | null =>
  variables.some((x) => x.key === v.key.trim()) ? null : [...variables, { key: v.key.trim(), value: v.value }];
