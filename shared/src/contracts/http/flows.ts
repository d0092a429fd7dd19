import * as z from "zod";
import { flowSchema, type Flow } from "../../domain/flows/flow";
import type { FlowIssue } from "../../domain/flows/flow-validate";

/**
 * Issue 30: the routes of /api/flows (admins only; the plan's integrations flag). Shapes for the page and the API.
 *
 *   GET    /api/flows                 -> FlowListResponse
 *   POST   /api/flows                 FlowSaveRequest -> 201 FlowResponse
 *   GET    /api/flows/{id}            -> FlowResponse
 *   PUT    /api/flows/{id}            FlowSaveRequest -> FlowResponse (the draft; published versions never change)
 *   DELETE /api/flows/{id}            -> 204 | 409 ERR_FLOW_IN_USE { data: FlowInUse }
 *   POST   /api/flows/{id}/publish    -> FlowResponse (with the new version in `versions`)
 *   GET    /api/flows/{id}/versions/{version} -> FlowVersionResponse
 *   GET    /api/flows/{id}/stats      -> FlowStatsResponse
 *   POST   /api/flows/{id}/test       FlowTestRequest -> FlowTestResponse
 *
 * A graph that cannot run: 400 ERR_FLOW_INVALID with `data: FlowInvalidData` (the nodes at fault).
 */

/** POST/PUT body: the flow itself (see flowSchema). */
export const flowSaveRequestSchema = flowSchema;
export type FlowSaveRequest = z.input<typeof flowSaveRequestSchema>;

export type FlowVersionSummary = { version: number; publishedAt: string; publishedBy: number | null; nodeCount: number };

export type FlowResponse = Flow & {
  id: number;
  companyId: number;
  /** the latest published version, null until the first publish */
  publishedVersion: number | null;
  /** newest first */
  versions: FlowVersionSummary[];
  /** unreachable nodes, unknown variables ... (the flow saves anyway) */
  warnings: FlowIssue[];
  createdAt: string;
  updatedAt: string;
};

export type FlowListItem = Pick<FlowResponse, "id" | "name" | "description" | "triggers" | "publishedVersion" | "createdAt" | "updatedAt"> & {
  nodeCount: number;
};
export type FlowListResponse = { flows: FlowListItem[] };

export type FlowVersionResponse = Flow & { flowId: number; version: number; publishedAt: string; publishedBy: number | null };

/** `data` of ERR_FLOW_INVALID */
export type FlowInvalidData = { errors: FlowIssue[]; warnings: FlowIssue[] };
/** `data` of ERR_FLOW_IN_USE */
export type FlowInUse = { whatsappIds: number[]; queueIds: number[]; runningConversations: number };

export type FlowNodeStats = { entered: number; exited: number; dropped: number };
/** Counts over every published version (counters kept by the engine, not a scan). */
export type FlowStatsResponse = {
  flowId: number;
  nodes: Record<string, FlowNodeStats>;
  /** the same per version */
  versions: Record<string, { nodes: Record<string, FlowNodeStats> }>;
  /** conversations started / finished (end or transfer) / left (exit word, accept, expiry, failure) */
  started: number;
  finished: number;
  dropped: number;
};

export const FLOW_TEST_CHANNELS = ["qr", "cloudapi"] as const;

/**
 * POST /api/flows/{id}/test: runs the flow in memory (the engine itself, no WhatsApp, no counters).
 * Send `flow` to test the unsaved canvas (else the saved draft), the customer's `messages` in order, and an optional
 * contact. `http` nodes call out for real (through the outbound guard); `ai` nodes take their `done` exit unless
 * `aiReply` is given.
 */
export const flowTestRequestSchema = z.object({
  flow: flowSchema.optional(),
  messages: z.array(z.string().max(4096)).max(50).default([]),
  /** a menu choice as pressed on a button: the option id */
  channel: z.enum(FLOW_TEST_CHANNELS).default("qr"),
  contact: z
    .object({ name: z.string().max(100).optional(), number: z.string().max(30).optional(), email: z.string().max(200).optional(), extra: z.record(z.string(), z.string()).optional() })
    .optional(),
  vars: z.record(z.string(), z.string()).optional(),
});
export type FlowTestRequest = z.input<typeof flowTestRequestSchema>;

export type FlowOutMessage =
  | { kind: "text"; body: string }
  /** Cloud API reply buttons (≤ 3 options); `text` is the same menu as numbered text (what QR connections get) */
  | { kind: "buttons"; body: string; buttons: { id: string; title: string }[]; text: string }
  /** Cloud API list message (≤ 10 options) */
  | { kind: "list"; body: string; button: string; rows: { id: string; title: string }[]; text: string }
  /** a file sent with its caption; `key` (our media store) only inside the engine, never answered by the test */
  | { kind: "media"; caption: string; fileName: string; mimetype: string; key?: string };

export type FlowTestStep = {
  /** the node run at this step */
  nodeId: string;
  nodeType: string;
  /** the customer message this step consumed, if any */
  in?: string;
  out: FlowOutMessage[];
  vars: Record<string, string>;
  contact: { name: string; number: string; email: string; extra: Record<string, string> };
  /** the handle taken out of the node ("default", an option id, "invalid" ...) */
  handle?: string;
  note?: string;
};

export type FlowTestResponse = {
  steps: FlowTestStep[];
  /** "waiting" = waiting for the customer at `nodeId`; "transferred"/"ended"/"left" = the flow is over */
  status: "waiting" | "waiting-timer" | "transferred" | "ended" | "left" | "failed";
  nodeId: string | null;
  transfer?: { queueId: number | null; userId: number | null };
  vars: Record<string, string>;
};
