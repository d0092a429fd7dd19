import * as z from "zod";

/**
 * Issue 30: a chatbot flow drawn on a canvas, as data. One schema for the API (save/publish), the engine (run) and
 * the web page (React Flow nodes/edges + the inspector's react-hook-form). The graph rules a schema cannot say
 * (edges to missing nodes, one start, loops without a customer input ...) are in validateFlow (flow-validate.ts).
 */

export const FLOW_LIMITS = {
  maxNodes: 500,
  maxEdges: 2000,
  /** any text a node sends or keeps */
  maxText: 4096,
  maxMenuOptions: 10,
  /** Cloud API: up to this many options go as reply buttons, more as a list message */
  maxButtons: 3,
  maxRules: 20,
  maxHeaders: 20,
  maxTriggers: 20,
  maxRetries: 10,
  /** `wait` node: up to 7 days */
  maxWaitSeconds: 7 * 24 * 3600,
  /** `http` node: the call's cap (issue 30: 10 s) */
  maxHttpTimeoutMs: 10_000,
  defaultHttpTimeoutMs: 10_000,
  defaultRetries: 2,
} as const;

export const FLOW_NODE_TYPES = ["start", "message", "media", "menu", "question", "condition", "http", "ai", "tag", "wait", "transfer", "end"] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

export const QUESTION_VALIDATIONS = ["text", "email", "number", "cpf", "cnpj", "date", "phone"] as const;
export type QuestionValidation = (typeof QUESTION_VALIDATIONS)[number];

export const CONDITION_OPS = ["eq", "neq", "contains", "gt", "lt", "empty", "notEmpty", "inBusinessHours"] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Out-handles with a fixed name. A node whose out-handle is the default has edges without `sourceHandle` (or "default"). */
export const DEFAULT_HANDLE = "default";
export const INVALID_HANDLE = "invalid";

/**
 * The variables a text may use: {{contact.name}}, {{contact.number}}, {{contact.email}}, {{contact.extra.<name>}},
 * {{vars.<name>}}, {{protocol}}. A name is letters, digits, `_` or `-` (1-64).
 */
export const VARIABLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const VARIABLE_PATTERN = /\{\{\s*(contact\.name|contact\.number|contact\.email|contact\.extra\.[A-Za-z0-9_-]{1,64}|vars\.[A-Za-z0-9_-]{1,64}|protocol)\s*\}\}/g;
/** Where a `question` (or an `http` saveAs) may keep a value. */
export const SAVE_TARGET = /^(vars\.[A-Za-z0-9_-]{1,64}|contact\.email|contact\.name|contact\.extra\.[A-Za-z0-9_-]{1,64})$/;
/** A JSON path into the http answer: `$`, `$.a.b`, `$.items[0].id`, `$.status` (the HTTP status) */
export const JSON_PATH = /^\$(\.[A-Za-z0-9_-]+|\[\d+\])*$/;

/** Every `{{...}}` in a text that is not a known variable (the page marks them; the engine leaves them as typed). */
export function unknownVariables(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\{\{([^}]*)\}\}/g)) {
    const inner = `{{${m[1]}}}`;
    VARIABLE_PATTERN.lastIndex = 0;
    if (!VARIABLE_PATTERN.test(inner)) out.push(m[1]!.trim());
  }
  VARIABLE_PATTERN.lastIndex = 0;
  return out;
}

const text = z.string().max(FLOW_LIMITS.maxText, "Too Long!");
const requiredText = text.trim().min(1, "Required");
const id = z.number().int().positive();
const optionId = z.string().trim().min(1, "Required").max(64, "Too Long!").regex(/^[A-Za-z0-9_-]+$/, "Invalid");
const saveTarget = z.string().trim().regex(SAVE_TARGET, "Invalid");

export const startDataSchema = z.object({}).loose();
export const messageDataSchema = z.object({ text: requiredText });
/** A file uploaded for a `media` node: POST /api/flows/media (multipart, field `file`) answers it (201). */
export const flowMediaFileSchema = z.object({ key: z.string().min(1).max(1024), name: z.string().max(255), mimetype: z.string().max(255) });
export type FlowMediaFile = z.infer<typeof flowMediaFileSchema>;
export const mediaDataSchema = z
  .object({
    /** a file of a file list (GET /files) ... */
    fileListId: id.optional(),
    /** ... or an uploaded file (POST /api/flows/media answers its key, name and type) */
    file: flowMediaFileSchema.optional(),
    caption: text.optional().default(""),
  })
  .refine((d) => d.fileListId !== undefined || d.file !== undefined, { message: "Required", path: ["fileListId"] });
export const menuOptionSchema = z.object({ id: optionId, label: z.string().trim().min(1, "Required").max(100, "Too Long!") });
export const menuDataSchema = z.object({
  text: requiredText,
  options: z
    .array(menuOptionSchema)
    .min(1, "Required")
    .max(FLOW_LIMITS.maxMenuOptions, "Too Long!")
    .refine((o) => new Set(o.map((x) => x.id)).size === o.length, "Duplicated"),
  invalidText: text.optional().default(""),
  retries: z.number().int().min(0).max(FLOW_LIMITS.maxRetries).optional().default(FLOW_LIMITS.defaultRetries),
});
export const questionDataSchema = z.object({
  text: requiredText,
  saveAs: saveTarget,
  validate: z.enum(QUESTION_VALIDATIONS).optional().default("text"),
  invalidText: text.optional().default(""),
  retries: z.number().int().min(0).max(FLOW_LIMITS.maxRetries).optional().default(FLOW_LIMITS.defaultRetries),
});
export const conditionRuleSchema = z.object({
  /** a text with variables, e.g. "{{vars.total}}" (ignored by inBusinessHours) */
  left: text.optional().default(""),
  op: z.enum(CONDITION_OPS),
  right: text.optional().default(""),
});
export const conditionDataSchema = z.object({
  rules: z.array(conditionRuleSchema).min(1, "Required").max(FLOW_LIMITS.maxRules, "Too Long!"),
  match: z.enum(["all", "any"]).optional().default("all"),
});
export const httpDataSchema = z.object({
  method: z.enum(HTTP_METHODS).optional().default("GET"),
  /** http(s) URL, may use variables; called through the outbound guard */
  url: requiredText.refine((v) => /^https?:\/\/\S+$/i.test(v), "Invalid URL"),
  headers: z
    .record(z.string().max(100), text)
    .optional()
    .default({})
    .refine((h) => Object.keys(h).length <= FLOW_LIMITS.maxHeaders, "Too Long!"),
  body: text.optional().default(""),
  /** `{ "vars.order": "$.order.id" }` */
  saveAs: z
    .record(saveTarget, z.string().trim().regex(JSON_PATH, "Invalid"))
    .optional()
    .default({}),
  timeoutMs: z.number().int().min(100).max(FLOW_LIMITS.maxHttpTimeoutMs).optional().default(FLOW_LIMITS.defaultHttpTimeoutMs),
});
export const aiDataSchema = z.object({ promptId: id });
export const tagDataSchema = z.object({ tagId: id });
export const waitDataSchema = z.object({ seconds: z.number().int().min(1).max(FLOW_LIMITS.maxWaitSeconds) });
export const transferDataSchema = z
  .object({ queueId: id.nullish(), userId: id.nullish(), text: text.optional() })
  .refine((d) => d.queueId != null || d.userId != null, { message: "Required", path: ["queueId"] });
export const endDataSchema = z.object({ text: text.optional().default(""), closeTicket: z.boolean().optional().default(false) });

export const FLOW_NODE_DATA = {
  start: startDataSchema,
  message: messageDataSchema,
  media: mediaDataSchema,
  menu: menuDataSchema,
  question: questionDataSchema,
  condition: conditionDataSchema,
  http: httpDataSchema,
  ai: aiDataSchema,
  tag: tagDataSchema,
  wait: waitDataSchema,
  transfer: transferDataSchema,
  end: endDataSchema,
} as const;

const position = z.object({ x: z.number().finite(), y: z.number().finite() });
const nodeId = z.string().trim().min(1, "Required").max(64, "Too Long!");
const nodeBase = { id: nodeId, position: position.optional() };

export const flowNodeSchema = z.discriminatedUnion("type", [
  z.object({ ...nodeBase, type: z.literal("start"), data: startDataSchema.optional().default({}) }),
  z.object({ ...nodeBase, type: z.literal("message"), data: messageDataSchema }),
  z.object({ ...nodeBase, type: z.literal("media"), data: mediaDataSchema }),
  z.object({ ...nodeBase, type: z.literal("menu"), data: menuDataSchema }),
  z.object({ ...nodeBase, type: z.literal("question"), data: questionDataSchema }),
  z.object({ ...nodeBase, type: z.literal("condition"), data: conditionDataSchema }),
  z.object({ ...nodeBase, type: z.literal("http"), data: httpDataSchema }),
  z.object({ ...nodeBase, type: z.literal("ai"), data: aiDataSchema }),
  z.object({ ...nodeBase, type: z.literal("tag"), data: tagDataSchema }),
  z.object({ ...nodeBase, type: z.literal("wait"), data: waitDataSchema }),
  z.object({ ...nodeBase, type: z.literal("transfer"), data: transferDataSchema }),
  z.object({ ...nodeBase, type: z.literal("end"), data: endDataSchema }),
]);
export type FlowNode = z.infer<typeof flowNodeSchema>;
export type FlowNodeOf<T extends FlowNodeType> = Extract<FlowNode, { type: T }>;

export const flowEdgeSchema = z.object({
  id: z.string().trim().max(128).optional(),
  source: nodeId,
  target: nodeId,
  /** the out-handle: a menu option's id, "invalid", "true"/"false", "success"/"error", "handover"/"done"; absent = default */
  sourceHandle: z.string().trim().max(64).nullish(),
});
export type FlowEdge = z.infer<typeof flowEdgeSchema>;

export const flowTriggerSchema = z.object({
  type: z.literal("keyword"),
  /** matched against the whole first message, accents and case ignored */
  value: z.string().trim().min(1, "Required").max(100, "Too Long!"),
});
export type FlowTrigger = z.infer<typeof flowTriggerSchema>;

/** Words that leave the flow for the queue (accents and case ignored); per flow, default "sair" and "atendente". */
export const DEFAULT_FLOW_EXIT_WORDS = ["sair", "atendente"];

export const flowSchema = z.object({
  name: z.string().trim().min(1, "Required").max(100, "Too Long!"),
  description: z.string().trim().max(FLOW_LIMITS.maxText, "Too Long!").optional().default(""),
  triggers: z.array(flowTriggerSchema).max(FLOW_LIMITS.maxTriggers, "Too Long!").optional().default([]),
  /** customer words that leave the flow for the queue; [] turns the escape off */
  exitWords: z.array(z.string().trim().min(1).max(60)).max(20).optional().default(DEFAULT_FLOW_EXIT_WORDS),
  nodes: z.array(flowNodeSchema).max(FLOW_LIMITS.maxNodes, "Too Long!"),
  edges: z.array(flowEdgeSchema).max(FLOW_LIMITS.maxEdges, "Too Long!"),
});
export type Flow = z.infer<typeof flowSchema>;
export type FlowInput = z.input<typeof flowSchema>;

/** The out-handles a node may have edges from (the page draws one handle each). `[]` = the flow ends there. */
export function outHandles(node: FlowNode): string[] {
  switch (node.type) {
    case "menu":
      return [...node.data.options.map((o) => o.id), INVALID_HANDLE];
    case "question":
      return [DEFAULT_HANDLE, INVALID_HANDLE];
    case "condition":
      return ["true", "false"];
    case "http":
      return ["success", "error"];
    case "ai":
      return ["handover", "done"];
    case "transfer":
    case "end":
      return [];
    default:
      return [DEFAULT_HANDLE];
  }
}

/** Node types that wait for the customer (a loop must go through one of them). */
export const CUSTOMER_INPUT_TYPES: readonly FlowNodeType[] = ["menu", "question", "ai"];

export const edgeHandle = (e: Pick<FlowEdge, "sourceHandle">): string => e.sourceHandle || DEFAULT_HANDLE;
