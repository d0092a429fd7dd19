import * as z from "zod";
import { optionalText } from "../../contracts/body-values";
import { COMPANY_SETTING_DEFAULTS, GLOBAL_SETTING_DEFAULTS } from "../../constants/settings";
import { TRIAL_DAYS_MAX, TRIAL_DAYS_MIN } from "../../constants/business";
import { AUDIT_RETENTION_MAX_DAYS, AUDIT_RETENTION_MIN_DAYS } from "../audit/audit";

export const isCompanySettingKey = (key: string): key is keyof typeof COMPANY_SETTING_DEFAULTS =>
  Object.prototype.hasOwnProperty.call(COMPANY_SETTING_DEFAULTS, key);
export const isGlobalSettingKey = (key: string): key is keyof typeof GLOBAL_SETTING_DEFAULTS =>
  Object.prototype.hasOwnProperty.call(GLOBAL_SETTING_DEFAULTS, key);

const onOff = z.enum(["enabled", "disabled"]);
const trueFalse = z.enum(["true", "false"]);

/** The values each setting key accepts; integration keys are free text. */
export const SETTING_VALUE_SCHEMAS: Record<string, z.ZodType<string>> = {
  userRating: onOff,
  scheduleType: z.enum(["disabled", "queue", "company"]),
  call: onOff,
  CheckMsgIsGroup: onOff,
  chatBotType: z.enum(["text"]),
  sendGreetingAccepted: onOff,
  sendMsgTransfTicket: onOff,
  sendGreetingMessageOneQueues: onOff,
  campaignsEnabled: trueFalse,
  defaultCapacity: z.string().regex(/^\d+$/).refine((v) => Number(v) >= 1 && Number(v) <= 100),
  allowregister: onOff,
  viewregister: onOff,
  trial: z.string().regex(/^\d+$/).refine((v) => Number(v) >= TRIAL_DAYS_MIN && Number(v) <= TRIAL_DAYS_MAX),
  requireMfa: onOff,
  sendProtocolOnOpen: onOff,
  pushPreviews: onOff,
  requireMfaAllCompanies: onOff,
  auditRetentionDays: z.string().regex(/^\d{1,4}$/).refine((v) => Number(v) >= AUDIT_RETENTION_MIN_DAYS && Number(v) <= AUDIT_RETENTION_MAX_DAYS),
};

/** PUT /settings/{key} body. */
export const settingUpdateSchema = z.object({ value: z.coerce.string().max(2000) });

/** The six logo destinations of POST /settings/media-upload?ref= */
export const LOGO_DESTINATIONS = ["signup", "login", "interno", "favicon", "favicon-256x256", "apple-touch-icon"] as const;
export type LogoDestination = (typeof LOGO_DESTINATIONS)[number];
export const LOGO_CONTENT_TYPES = { png: "image/png", ico: "image/x-icon", svg: "image/svg+xml" } as const;

/** POST /helps and PUT /helps/{id}: the video is a YouTube code or URL. */
export const helpSchema = z.object({
  title: z.string().trim().min(1, "Required").max(200),
  description: optionalText(z.string().max(2000)).default(""),
  video: optionalText(z.string().trim().max(300)).default(""),
});
