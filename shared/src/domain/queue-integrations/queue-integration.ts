import * as z from "zod";
import { optionalId, optionalNum, optionalText } from "../../contracts/body-values";

/** Spec 3 section 9. */
export const INTEGRATION_TYPES = ["dialogflow", "n8n", "webhook", "typebot"] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const DIALOGFLOW_LANGUAGES = ["pt-BR", "en", "es"] as const;
export type DialogflowLanguage = (typeof DIALOGFLOW_LANGUAGES)[number];

export const INTEGRATION_NAME_MIN = 2;
export const INTEGRATION_NAME_MAX = 50;

/** The dialog's defaults (spec 3 section 4: on close or after saving the form returns to them; type typebot). */
export const INTEGRATION_DEFAULTS = {
  type: "typebot" as IntegrationType,
  name: "",
  projectName: "",
  jsonContent: "",
  language: "" as DialogflowLanguage | "",
  urlN8N: "",
  typebotSlug: "",
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: "",
  typebotKeywordRestart: "",
  typebotUnknownMessage: "",
  typebotRestartMessage: "",
};

/** Which fields each type's form shows (spec 3 section 3). */
export const INTEGRATION_FIELDS: Record<IntegrationType, readonly (keyof typeof INTEGRATION_DEFAULTS)[]> = {
  dialogflow: ["name", "language", "projectName", "jsonContent"],
  n8n: ["name", "urlN8N"],
  webhook: ["name", "urlN8N"],
  typebot: ["name", "urlN8N", "typebotSlug", "typebotExpires", "typebotDelayMessage", "typebotKeywordFinish", "typebotKeywordRestart", "typebotUnknownMessage", "typebotRestartMessage"],
};

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
};

const text = (max: number) => optionalText(z.string().trim().max(max, "Too Long!")).optional().default("");

/**
 * POST /queueIntegration and PUT /queueIntegration/{id} (spec 3 section 5): name 2..50 ("Required" / "Too Short!" /
 * "Too Long!"), type required; DialogFlow needs a language; n8n, webhook and typebot need urlN8N (an http(s) URL);
 * typebot also the slug. For n8n, webhook and typebot, projectName is the name. Fields of other types are dropped.
 */
export const queueIntegrationSchema = z
  .object({
    type: z.enum(INTEGRATION_TYPES, { error: "Required" }),
    name: z.string({ error: "Required" }).trim().min(1, "Required").min(INTEGRATION_NAME_MIN, "Too Short!").max(INTEGRATION_NAME_MAX, "Too Long!"),
    projectName: text(100),
    jsonContent: text(20_000),
    language: z.union([z.enum(DIALOGFLOW_LANGUAGES), z.literal("")]).nullable().optional(),
    urlN8N: text(2000),
    typebotSlug: text(200),
    typebotExpires: optionalNum(z.number().int().min(0).max(100_000).default(INTEGRATION_DEFAULTS.typebotExpires)),
    typebotDelayMessage: optionalNum(z.number().int().min(0).max(60_000).default(INTEGRATION_DEFAULTS.typebotDelayMessage)),
    typebotKeywordFinish: text(100),
    typebotKeywordRestart: text(100),
    typebotUnknownMessage: text(2000),
    typebotRestartMessage: text(2000),
  })
  .superRefine((v, ctx) => {
    if (v.type === "dialogflow" && !v.language) ctx.addIssue({ code: "custom", path: ["language"], message: "Required" });
    if (v.type !== "dialogflow") {
      if (!v.urlN8N) ctx.addIssue({ code: "custom", path: ["urlN8N"], message: "Required" });
      else if (!isHttpUrl(v.urlN8N)) ctx.addIssue({ code: "custom", path: ["urlN8N"], message: "invalid" });
    }
    if (v.type === "typebot" && !v.typebotSlug) ctx.addIssue({ code: "custom", path: ["typebotSlug"], message: "Required" });
  })
  .transform((v) => {
    const keep = new Set<string>(INTEGRATION_FIELDS[v.type]);
    const pick = <K extends keyof typeof INTEGRATION_DEFAULTS>(k: K, value: (typeof INTEGRATION_DEFAULTS)[K]) => (keep.has(k) ? value : INTEGRATION_DEFAULTS[k]);
    return {
      type: v.type,
      name: v.name,
      // spec 3 section 3: for n8n, webhook and typebot the project name is the name
      projectName: v.type === "dialogflow" ? v.projectName : v.name,
      jsonContent: pick("jsonContent", v.jsonContent),
      language: v.type === "dialogflow" ? (v.language as DialogflowLanguage) : null,
      urlN8N: pick("urlN8N", v.urlN8N),
      typebotSlug: pick("typebotSlug", v.typebotSlug),
      typebotExpires: pick("typebotExpires", v.typebotExpires),
      typebotDelayMessage: pick("typebotDelayMessage", v.typebotDelayMessage),
      typebotKeywordFinish: pick("typebotKeywordFinish", v.typebotKeywordFinish),
      typebotKeywordRestart: pick("typebotKeywordRestart", v.typebotKeywordRestart),
      typebotUnknownMessage: pick("typebotUnknownMessage", v.typebotUnknownMessage),
      typebotRestartMessage: pick("typebotRestartMessage", v.typebotRestartMessage),
    };
  });
export type QueueIntegrationInput = z.infer<typeof queueIntegrationSchema>;

/**
 * POST /queueIntegration/testSession: the DialogFlow test button. `id` (optional, beyond the spec): the integration
 * being edited, whose stored private key replaces a masked one in `jsonContent`.
 */
export const dialogflowTestSchema = z.object({
  id: optionalId(),
  projectName: z.string().trim().min(1, "Required").max(100, "Too Long!"),
  jsonContent: z.string().trim().min(1, "Required").max(20_000, "Too Long!"),
  language: z.enum(DIALOGFLOW_LANGUAGES, { error: "Required" }),
});
export type DialogflowTestInput = z.infer<typeof dialogflowTestSchema>;

/**
 * Whether `jsonContent` looks like a Google service-account key DialogFlow accepts: a JSON object of type
 * "service_account" with project_id, client_email and a PEM private_key. Returns the problem, or null when usable.
 */
export const dialogflowCredentialsProblem = (jsonContent: string, projectName: string): "json" | "type" | "fields" | "project" | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonContent);
  } catch {
    return "json";
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return "json";
  const c = parsed as Record<string, unknown>;
  if (c.type !== "service_account") return "type";
  const str = (k: string) => typeof c[k] === "string" && (c[k] as string).trim() !== "";
  if (!str("project_id") || !str("client_email") || !str("private_key")) return "fields";
  if (!/-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----/.test(c.private_key as string)) return "fields";
  if (!/^[^@\s]+@[^@\s]+$/.test(c.client_email as string)) return "fields";
  if (c.project_id !== projectName) return "project";
  return null;
};

const MASK = "••••••••";
const parseObject = (json: string): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** The service-account JSON as the browser sees it after saving: the private key is masked, the rest as stored. */
export const maskServiceAccountKey = (jsonContent: string): string => {
  const c = parseObject(jsonContent);
  if (!c || typeof c.private_key !== "string" || !c.private_key) return jsonContent;
  return JSON.stringify({ ...c, private_key: MASK }, null, 2);
};

/** A JSON sent back with the masked private key gets the stored key again (the admin did not change it). */
export const restoreServiceAccountKey = (sent: string, stored: string): string => {
  const c = parseObject(sent);
  if (!c || c.private_key !== MASK) return sent;
  const s = parseObject(stored);
  return typeof s?.private_key === "string" ? JSON.stringify({ ...c, private_key: s.private_key }, null, 2) : sent;
};

/** A stored queue integration (the webhook secret sealed; answers mask it or leave it out). */
export type QueueIntegration = QueueIntegrationInput & { id: number; companyId: number; webhookSecret?: string | null; createdAt: string; updatedAt: string };
