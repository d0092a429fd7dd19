import * as z from "zod";
import { flag, NONE_ID_VALUES, optionalId, optionalText, orNone, requiredId } from "../../contracts/body-values";
import { WALL_TIME } from "../format/time-zone";
import { templateSendSchema, type TemplateSend } from "../cloud-api/message-templates";

/** Spec 3 section 4: statuses (Portuguese values, as the reference product stores them). INATIVA is the default. */
export const CAMPAIGN_STATUSES = ["INATIVA", "PROGRAMADA", "EM_ANDAMENTO", "CANCELADA", "FINALIZADA"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_VARIANTS = [1, 2, 3, 4, 5] as const;
export const CAMPAIGN_MESSAGE_MAX = 4_096;
/** Spec 3 section 9: the editable window closes one hour before scheduledAt. */
export const CAMPAIGN_EDIT_WINDOW_MS = 60 * 60_000;
/** The tag list field's "none" value, shown as "Nenhuma". */
export const NO_TAG_LIST = "Nenhuma";

const message = optionalText(z.string().max(CAMPAIGN_MESSAGE_MAX, "Too Long!")).optional().default("");
/** absent is "none" too: a campaign body is always the whole form */
const optionalCampaignId = optionalId().transform((v) => v ?? null);

/**
 * POST /campaigns and PUT /campaigns/{id} body. `scheduledAt`: an ISO instant with its offset (the form sends
 * `toISOString()` so the time never depends on a zone), or the spec's "YYYY-MM-DD HH:mm:ss", a wall-clock time read in
 * the company's time zone (never the server's); empty or
 * null means not scheduled (INATIVA). Unknown fields (status, companyId ...) are dropped: the server decides them.
 */
export const campaignSchema = z.object({
  name: z.string("Required").trim().min(1, "Required").min(2, "Too Short!").max(50, "Too Long!"),
  message1: message,
  message2: message,
  message3: message,
  message4: message,
  message5: message,
  confirmationMessage1: message,
  confirmationMessage2: message,
  confirmationMessage3: message,
  confirmationMessage4: message,
  confirmationMessage5: message,
  confirmation: flag().optional().default(false),
  scheduledAt: z.preprocess(
    (v) => (v === "" || v === undefined ? null : v),
    z.union([z.iso.datetime({ offset: true }), z.string().regex(WALL_TIME)], { error: "Invalid date" }).nullable(),
  ),
  whatsappId: optionalCampaignId,
  contactListId: optionalCampaignId,
  tagListId: z
    .union([z.literal(NO_TAG_LIST), requiredId(), z.literal(NONE_ID_VALUES).transform((): typeof NO_TAG_LIST => NO_TAG_LIST)])
    .optional()
    .default(NO_TAG_LIST),
  fileListId: optionalCampaignId,
  /**
   * Cloud API connections (issue 12): the approved message template every recipient gets instead of the messages;
   * a variable's value may hold the campaign placeholders ({nome}, {numero}, {email}, the settings' variables),
   * filled per recipient. Required on a Cloud API connection, refused on a QR one.
   */
  template: orNone(templateSendSchema).optional().default(null),
});
export type CampaignInput = z.infer<typeof campaignSchema>;

/**
 * A campaign, defined once: the view (contracts/http/campaigns.ts) adds its relations and counts, the stored record
 * (functions' campaigns repository) adds the dispatch state. `CAMPAIGN_FIELDS` names each field once, for mappers.
 */
export type Campaign = {
  id: number;
  companyId: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  status: CampaignStatus;
  confirmation: boolean;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagListId: number | typeof NO_TAG_LIST;
  fileListId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  /** Cloud API: the template sent instead of the messages (null: the messages, QR connections) */
  template?: TemplateSend | null;
  createdAt: string;
  updatedAt: string;
};
export const CAMPAIGN_FIELDS = {
  id: true,
  companyId: true,
  name: true,
  message1: true,
  message2: true,
  message3: true,
  message4: true,
  message5: true,
  confirmationMessage1: true,
  confirmationMessage2: true,
  confirmationMessage3: true,
  confirmationMessage4: true,
  confirmationMessage5: true,
  status: true,
  confirmation: true,
  scheduledAt: true,
  completedAt: true,
  whatsappId: true,
  contactListId: true,
  tagListId: true,
  fileListId: true,
  mediaPath: true,
  mediaName: true,
  template: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies { readonly [K in keyof Campaign]-?: true };
const CAMPAIGN_KEYS = Object.keys(CAMPAIGN_FIELDS) as (keyof Campaign)[];

/** The campaign's own fields of anything that carries them (a stored record with its dispatch state), in field order. */
export const pickCampaign = (c: Campaign): Campaign => Object.fromEntries(CAMPAIGN_KEYS.map((k) => [k, c[k]])) as Campaign;

export type CampaignMessages = Pick<
  CampaignInput,
  `message${(typeof CAMPAIGN_VARIANTS)[number]}` | `confirmationMessage${(typeof CAMPAIGN_VARIANTS)[number]}`
>;
export const MESSAGE_FIELDS = CAMPAIGN_VARIANTS.flatMap((n) => [`message${n}`, `confirmationMessage${n}`] as const);

/** Spec 3 section 4: every field may change while INATIVA, or PROGRAMADA more than an hour ahead. */
export const isCampaignEditable = (c: { status: CampaignStatus; scheduledAt: string | null }, now: Date): boolean =>
  c.status === "INATIVA" ||
  (c.status === "PROGRAMADA" && c.scheduledAt !== null && new Date(c.scheduledAt).getTime() - now.getTime() > CAMPAIGN_EDIT_WINDOW_MS);

/** A CANCELADA campaign still takes a submit that changes its messages (and only them). */
export const canEditCampaignMessages = (c: { status: CampaignStatus; scheduledAt: string | null }, now: Date): boolean =>
  isCampaignEditable(c, now) || c.status === "CANCELADA";

/**
 * A template's values for one recipient: each value's campaign placeholders filled ({nome} -> the recipient's name).
 */
export const fillTemplatePlaceholders = (t: TemplateSend, v: PlaceholderValues): TemplateSend => {
  const fillAll = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, x]) => [k, fillCampaignPlaceholders(x, v)]));
  return { ...t, values: { header: fillAll(t.values.header), body: fillAll(t.values.body) } };
};

/** The filled variants (1..5) of a campaign: each with its message and its confirmation message. */
export const filledVariants = (c: CampaignMessages) =>
  CAMPAIGN_VARIANTS.map((n) => ({ n, message: c[`message${n}`] ?? "", confirmation: c[`confirmationMessage${n}`] ?? "" })).filter((v) => v.message.trim() !== "");

export type PlaceholderValues = { name: string; number: string; email: string; variables: { key: string; value: string }[] };

/** Fills {nome}, {numero}, {email} and the settings' custom variables ({key}); unknown placeholders stay as written. */
export const fillCampaignPlaceholders = (text: string, v: PlaceholderValues): string => {
  const values = new Map<string, string>(v.variables.map((x) => [x.key, x.value]));
  values.set("nome", v.name);
  values.set("numero", v.number);
  values.set("email", v.email);
  return text.replace(/\{([^{}\s]+)\}/g, (whole, key: string) => values.get(key) ?? whole);
};

/** Report progress: delivered / WhatsApp-valid recipients x 100 (0 with no valid recipient), whole percent. */
export const campaignProgress = (delivered: number, valid: number) => (valid > 0 ? Math.min(100, Math.round((delivered / valid) * 100)) : 0);
