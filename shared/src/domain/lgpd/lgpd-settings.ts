import { flag } from "../../contracts/body-values";
import * as z from "zod";
import { DEFAULT_OPT_OUT_CONFIRMATION, DEFAULT_OPT_OUT_KEYWORDS, normalizeOptOutText } from "./opt-out-rules";

/** Media retention: at least a day, at most ten years. Off (null) by default. */
export const MEDIA_RETENTION_MIN_DAYS = 1;
export const MEDIA_RETENTION_MAX_DAYS = 3650;

/** A company's LGPD settings (opt-outs and media retention). */
export type LgpdSettings = {
  /** the words that opt a customer out (compared normalised: case, accents and punctuation ignored) */
  optOutKeywords: string[];
  /** the message sent after opting out ("" sends none) */
  optOutConfirmation: string;
  /** true: an opt-out word counts in any ticket; false: only as a reply to a campaign message */
  optOutInAnyTicket: boolean;
  /** delete media older than this many days (null: keep media forever) */
  mediaRetentionDays: number | null;
};

export const DEFAULT_LGPD_SETTINGS: LgpdSettings = {
  optOutKeywords: [...DEFAULT_OPT_OUT_KEYWORDS],
  optOutConfirmation: DEFAULT_OPT_OUT_CONFIRMATION,
  optOutInAnyTicket: false,
  mediaRetentionDays: null,
};

const keyword = z
  .string()
  .trim()
  .min(1, "Required")
  .max(40, "Too Long!")
  .refine((k) => normalizeOptOutText(k).length > 0, "Required");

/** PUT /lgpd/settings: every field optional (a partial update); keywords de-duplicated by their normal form. */
export const lgpdSettingsUpdateSchema = z
  .object({
    optOutKeywords: z
      .array(keyword)
      .min(1, "Required")
      .max(30)
      .transform((list) => [...new Map(list.map((k) => [normalizeOptOutText(k), k] as const)).values()]),
    optOutConfirmation: z.string().trim().max(1000, "Too Long!"),
    optOutInAnyTicket: flag(), // spec clients send 0/1 too
    mediaRetentionDays: z.number().int().min(MEDIA_RETENTION_MIN_DAYS).max(MEDIA_RETENTION_MAX_DAYS).nullable(),
  })
  .partial()
  .strict();
export type LgpdSettingsUpdate = z.infer<typeof lgpdSettingsUpdateSchema>;
