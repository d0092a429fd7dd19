import * as z from "zod";

/**
 * WhatsApp message templates as we keep them (synced from the WABA's `message_templates` edge of the Graph API),
 * and the pure rules around them: the variables a template needs, its preview with values filled in, and the
 * `components` of a template message (Meta's send payload). Variables are positional ({{1}}, {{2}}) or named
 * ({{order_id}}); a named template's parameters carry `parameter_name`.
 */
export const TEMPLATE_STATUSES = ["APPROVED", "PENDING", "REJECTED", "PAUSED", "DISABLED", "IN_APPEAL", "PENDING_DELETION", "DELETED", "LIMIT_EXCEEDED"] as const;
export const TEMPLATE_CATEGORIES = ["MARKETING", "UTILITY", "AUTHENTICATION"] as const;
export const HEADER_FORMATS = ["TEXT", "IMAGE", "VIDEO", "DOCUMENT", "LOCATION"] as const;

export const templateButtonSchema = z.object({
  type: z.string().max(40),
  text: z.string().max(200),
  url: z.string().max(2000).optional(),
  phoneNumber: z.string().max(40).optional(),
});
export const messageTemplateSchema = z.object({
  /** Meta's template id */
  id: z.string().max(64),
  name: z.string().max(512),
  language: z.string().max(16),
  category: z.string().max(40),
  status: z.string().max(40),
  header: z.object({ format: z.enum(HEADER_FORMATS), text: z.string().max(200).optional() }).nullable(),
  body: z.string().max(1100),
  footer: z.string().max(100).nullable(),
  buttons: z.array(templateButtonSchema).max(10),
});
export type MessageTemplate = z.infer<typeof messageTemplateSchema>;

/** The values typed or taken from the contact, per variable name ("1", "2" ... or "order_id"). */
export const templateValuesSchema = z.object({
  header: z.record(z.string().max(60), z.string().max(1024)).default({}),
  body: z.record(z.string().max(60), z.string().max(1024)).default({}),
});
export type TemplateValues = z.infer<typeof templateValuesSchema>;

/** What a client sends to send a template (composer, campaign, external API). */
export const templateSendSchema = z.object({
  name: z.string().trim().min(1).max(512),
  language: z.string().trim().min(2).max(16),
  values: templateValuesSchema.default({ header: {}, body: {} }),
  /** a media header's public link (image, video or document templates) */
  headerMediaUrl: z.string().url().max(2000).optional(),
});
export type TemplateSend = z.infer<typeof templateSendSchema>;

/**
 * Meta's own `template.components` of a send (external API callers that already build Meta's payload): `header`
 * and `body` components with `text` parameters (positional, or named with `parameter_name`) and a media header's
 * `link`. Button parameters are not supported (our templates send none).
 */
const componentParamSchema = z.object({
  type: z.string().max(20),
  text: z.string().max(1024).optional(),
  parameter_name: z.string().max(60).optional(),
  image: z.object({ link: z.string().url().max(2000) }).optional(),
  video: z.object({ link: z.string().url().max(2000) }).optional(),
  document: z.object({ link: z.string().url().max(2000) }).optional(),
});
export const templateComponentsInputSchema = z
  .array(z.object({ type: z.string().toLowerCase().pipe(z.enum(["header", "body"])), parameters: z.array(componentParamSchema).max(100).default([]) }))
  .max(2);
export type TemplateComponentsInput = z.infer<typeof templateComponentsInputSchema>;

/** The values (and media header link) of Meta-style components: the n-th positional parameter is variable "n". */
export const valuesFromComponents = (components: TemplateComponentsInput): { values: TemplateValues; headerMediaUrl?: string } => {
  const values: TemplateValues = { header: {}, body: {} };
  let headerMediaUrl: string | undefined;
  for (const c of components) {
    c.parameters.forEach((p, i) => {
      const media = p.image ?? p.video ?? p.document;
      if (c.type === "header" && media) headerMediaUrl = media.link;
      else if (p.text !== undefined) values[c.type][p.parameter_name ?? String(i + 1)] = p.text;
    });
  }
  return { values, ...(headerMediaUrl ? { headerMediaUrl } : {}) };
};

/**
 * A template as the external API takes it: our `values`, or Meta's `components` (see above), or both (a value given
 * in `values` wins). Answers the same TemplateSend as the other senders.
 */
export const externalTemplateSchema = templateSendSchema.extend({ components: templateComponentsInputSchema.optional() }).transform(({ components, ...t }): TemplateSend => {
  if (!components) return t;
  const from = valuesFromComponents(components);
  const headerMediaUrl = t.headerMediaUrl ?? from.headerMediaUrl;
  return {
    ...t,
    values: { header: { ...from.values.header, ...t.values.header }, body: { ...from.values.body, ...t.values.body } },
    ...(headerMediaUrl ? { headerMediaUrl } : {}),
  };
});

const VAR = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The variable names of a text in order of first appearance. */
export const templateVariables = (text: string | undefined | null): string[] => {
  const out: string[] = [];
  for (const m of (text ?? "").matchAll(VAR)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
};

/** A template's variables: header (text headers only) and body. */
export const variablesOf = (t: Pick<MessageTemplate, "header" | "body">) => ({
  header: t.header?.format === "TEXT" ? templateVariables(t.header.text) : [],
  body: templateVariables(t.body),
});

const fill = (text: string, values: Record<string, string>) => text.replace(VAR, (all, name: string) => (values[name] !== undefined && values[name] !== "" ? values[name]! : all));

/** The names of variables without a value (empty values count as missing). */
export const missingValues = (t: Pick<MessageTemplate, "header" | "body">, values: TemplateValues): string[] => {
  const v = variablesOf(t);
  return [...v.header.filter((n) => !values.header[n]?.trim()).map((n) => `header.${n}`), ...v.body.filter((n) => !values.body[n]?.trim()).map((n) => `body.${n}`)];
};

/** The text we store and show for a template message: header text, body and footer, variables filled. */
export const renderTemplate = (t: Pick<MessageTemplate, "header" | "body" | "footer">, values: TemplateValues): string => {
  const parts: string[] = [];
  if (t.header?.format === "TEXT" && t.header.text) parts.push(`*${fill(t.header.text, values.header)}*`);
  else if (t.header) parts.push(`[${t.header.format.toLowerCase()}]`);
  parts.push(fill(t.body, values.body));
  if (t.footer) parts.push(`_${t.footer}_`);
  return parts.join("\n");
};

const isPositional = (names: string[]) => names.every((n) => /^\d+$/.test(n));
const parametersFor = (names: string[], values: Record<string, string>) =>
  names.map((n) => (isPositional(names) ? { type: "text" as const, text: values[n] ?? "" } : { type: "text" as const, parameter_name: n, text: values[n] ?? "" }));

export type TemplateComponentParam =
  | { type: "text"; text: string; parameter_name?: string }
  | { type: "image" | "video" | "document"; image?: { link: string }; video?: { link: string }; document?: { link: string } };
export type TemplateSendComponent = { type: "header" | "body"; parameters: TemplateComponentParam[] };

/** The `template.components` of Meta's send payload for these values (empty components are left out). */
export const templateComponents = (t: Pick<MessageTemplate, "header" | "body">, values: TemplateValues, headerMediaUrl?: string): TemplateSendComponent[] => {
  const v = variablesOf(t);
  const out: TemplateSendComponent[] = [];
  if (t.header && t.header.format !== "TEXT" && t.header.format !== "LOCATION" && headerMediaUrl) {
    const kind = t.header.format.toLowerCase() as "image" | "video" | "document";
    out.push({ type: "header", parameters: [{ type: kind, [kind]: { link: headerMediaUrl } }] });
  } else if (v.header.length) out.push({ type: "header", parameters: parametersFor(v.header, values.header) });
  if (v.body.length) out.push({ type: "body", parameters: parametersFor(v.body, values.body) });
  return out;
};

/** Campaigns on a Cloud API connection, and messages outside the window, may use approved templates only. */
export const isSendable = (t: Pick<MessageTemplate, "status">) => t.status === "APPROVED";

/** Contact fields a variable can be filled from in the picker. */
export const TEMPLATE_CONTACT_FIELDS = ["name", "number", "email"] as const;
export const fillFromContact = (field: (typeof TEMPLATE_CONTACT_FIELDS)[number], contact: { name?: string | null; number?: string | null; email?: string | null }) =>
  contact[field] ?? "";

type GraphComponent = {
  type?: string;
  format?: string;
  text?: string;
  buttons?: { type?: string; text?: string; url?: string; phone_number?: string }[];
};
/** One entry of Graph's `GET /{waba-id}/message_templates` answer, as we keep it. */
export const fromGraphTemplate = (raw: { id?: string; name?: string; language?: string; category?: string; status?: string; components?: GraphComponent[] }): MessageTemplate => {
  const comps = raw.components ?? [];
  const header = comps.find((c) => c.type === "HEADER");
  const format = (HEADER_FORMATS as readonly string[]).includes(header?.format ?? "") ? (header!.format as (typeof HEADER_FORMATS)[number]) : null;
  return {
    id: String(raw.id ?? ""),
    name: String(raw.name ?? ""),
    language: String(raw.language ?? ""),
    category: String(raw.category ?? ""),
    status: String(raw.status ?? ""),
    header: header && format ? { format, ...(header.text !== undefined ? { text: header.text } : {}) } : null,
    body: comps.find((c) => c.type === "BODY")?.text ?? "",
    footer: comps.find((c) => c.type === "FOOTER")?.text ?? null,
    buttons: (comps.find((c) => c.type === "BUTTONS")?.buttons ?? []).map((b) => ({
      type: String(b.type ?? ""),
      text: String(b.text ?? ""),
      ...(b.url ? { url: b.url } : {}),
      ...(b.phone_number ? { phoneNumber: b.phone_number } : {}),
    })),
  };
};
