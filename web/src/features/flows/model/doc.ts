import * as z from "zod";
import { FLOW_NODE_DATA, flowSchema, outHandles, type FlowInput, type FlowNode, type FlowNodeType } from "@atende/shared/domain/flows/flow";
import { validateFlow, type FlowIssue } from "@atende/shared/domain/flows/flow-validate";

/**
 * The editor's document (ADR 0086): the flow as the shared schema says, except that a node's `data` may be
 * incomplete while it is being filled in (the inspector shows the field errors; the node shows a red mark).
 */
export type DocNode = { id: string; type: FlowNodeType; position: { x: number; y: number }; data: Record<string, unknown> };
export type DocEdge = { id: string; source: string; target: string; sourceHandle?: string | null };
export type FlowDoc = Omit<FlowInput, "nodes" | "edges"> & { nodes: DocNode[]; edges: DocEdge[] };

/** What a node dropped from the palette starts with. */
export const DEFAULT_DATA: Record<FlowNodeType, Record<string, unknown>> = {
  start: {},
  message: { text: "" },
  media: { caption: "" },
  menu: { text: "", options: [{ id: "1", label: "" }], invalidText: "", retries: 2 },
  question: { text: "", saveAs: "vars.answer", validate: "text", invalidText: "", retries: 2 },
  condition: { rules: [{ left: "", op: "eq", right: "" }], match: "all" },
  http: { method: "GET", url: "https://", headers: {}, body: "", saveAs: {}, timeoutMs: 10000 },
  ai: {},
  tag: {},
  wait: { seconds: 60 },
  transfer: { queueId: null, userId: null },
  end: { text: "", closeTicket: false },
};

export const emptyDoc = (name = ""): FlowDoc => ({
  name,
  description: "",
  triggers: [],
  nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: {} }],
  edges: [],
});

let counter = 0;
export const newNodeId = (type: string, taken: ReadonlySet<string>): string => {
  let id = "";
  do id = `${type}-${Date.now().toString(36)}${(counter++).toString(36)}`;
  while (taken.has(id));
  return id;
};
export const edgeIdOf = (e: Pick<DocEdge, "source" | "target" | "sourceHandle">) => `e-${e.source}-${e.sourceHandle || "default"}-${e.target}`;

/** A flow from the API (or a JSON file) as a document; nodes without a position are laid out in a column. */
export const docFromFlow = (flow: FlowInput): FlowDoc => ({
  name: flow.name,
  description: flow.description ?? "",
  triggers: flow.triggers ?? [],
  exitWords: flow.exitWords,
  nodes: flow.nodes.map((n, i) => ({ id: n.id, type: n.type, position: n.position ?? { x: 0, y: i * 120 }, data: { ...((n.data as Record<string, unknown>) ?? {}) } })),
  edges: flow.edges.map((e) => ({ id: e.id || edgeIdOf(e), source: e.source, target: e.target, sourceHandle: e.sourceHandle ?? null })),
});

/** The document as the API takes it (also what the export writes). */
export const flowFromDoc = (doc: FlowDoc): FlowInput => ({
  name: doc.name,
  description: doc.description,
  triggers: doc.triggers,
  ...(doc.exitWords ? { exitWords: doc.exitWords } : {}),
  nodes: doc.nodes.map((n) => ({ id: n.id, type: n.type, position: n.position, data: n.data }) as FlowInput["nodes"][number]),
  edges: doc.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, ...(e.sourceHandle ? { sourceHandle: e.sourceHandle } : {}) })),
});

/** Per node: its data's field errors (shared schema) and the graph's errors/warnings (shared validateFlow). */
export type NodeIssues = { fields: { path: string; message: string }[]; errors: FlowIssue[]; warnings: FlowIssue[] };
export type DocValidation = { byNode: Record<string, NodeIssues>; errors: FlowIssue[]; warnings: FlowIssue[]; fieldErrorCount: number };

/** A node whose data does not parse yet still takes part in the graph rules with what it has. */
const lenientNode = (n: DocNode): FlowNode => {
  const d = n.data;
  const data = { ...d } as Record<string, unknown>;
  if (n.type === "menu" && !Array.isArray(d.options)) data.options = [];
  if (n.type === "condition" && !Array.isArray(d.rules)) data.rules = [];
  return { id: n.id, type: n.type, position: n.position, data } as FlowNode;
};

export function validateDoc(doc: FlowDoc): DocValidation {
  const byNode: Record<string, NodeIssues> = {};
  const issuesOf = (id: string) => (byNode[id] ??= { fields: [], errors: [], warnings: [] });
  let fieldErrorCount = 0;
  const nodes = doc.nodes.map((n) => {
    const parsed = FLOW_NODE_DATA[n.type].safeParse(n.data);
    if (parsed.success) return { id: n.id, type: n.type, position: n.position, data: parsed.data } as FlowNode;
    for (const issue of parsed.error.issues) issuesOf(n.id).fields.push({ path: issue.path.join("."), message: issue.message });
    fieldErrorCount += parsed.error.issues.length;
    return lenientNode(n);
  });
  const result = validateFlow({ nodes, edges: doc.edges });
  for (const e of result.errors) if (e.nodeId) issuesOf(e.nodeId).errors.push(e);
  for (const w of result.warnings) if (w.nodeId) issuesOf(w.nodeId).warnings.push(w);
  return { byNode, errors: result.errors, warnings: result.warnings, fieldErrorCount };
}

/** The out-handles the canvas draws for a node (menu options appear as they are typed). */
export const docOutHandles = (n: DocNode): string[] => outHandles(lenientNode(n));

/** JSON import: the file must be a flow by the shared schema (graph errors are shown on the canvas, not refused). */
export const importFlowJson = (text: string): { ok: true; doc: FlowDoc } | { ok: false; error: string } => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: "notJson" };
  }
  const parsed = flowSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: z.prettifyError(parsed.error) };
  return { ok: true, doc: docFromFlow(parsed.data) };
};
export const exportFlowJson = (doc: FlowDoc): string => JSON.stringify(flowFromDoc(doc), null, 2);

/** Copy: the chosen nodes and the edges between them. Paste: new ids, moved a little, edges remapped. */
export type Clipboard = { nodes: DocNode[]; edges: DocEdge[] };
export const copyNodes = (doc: FlowDoc, ids: ReadonlySet<string>): Clipboard => ({
  nodes: doc.nodes.filter((n) => ids.has(n.id) && n.type !== "start"),
  edges: doc.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
});
export const pasteNodes = (doc: FlowDoc, clip: Clipboard, offset = 40): { doc: FlowDoc; pastedIds: string[] } => {
  const taken = new Set(doc.nodes.map((n) => n.id));
  const map = new Map<string, string>();
  const nodes = clip.nodes.map((n) => {
    const id = newNodeId(n.type, taken);
    taken.add(id);
    map.set(n.id, id);
    return { ...n, id, position: { x: n.position.x + offset, y: n.position.y + offset }, data: structuredClone(n.data) };
  });
  const edges = clip.edges
    .filter((e) => map.has(e.source) && map.has(e.target))
    .map((e) => {
      const next = { source: map.get(e.source)!, target: map.get(e.target)!, sourceHandle: e.sourceHandle ?? null };
      return { ...next, id: edgeIdOf(next) };
    });
  return { doc: { ...doc, nodes: [...doc.nodes, ...nodes], edges: [...doc.edges, ...edges] }, pastedIds: nodes.map((n) => n.id) };
};

/** Between two versions: nodes added, removed and changed (type or data; a move is not a change). */
export type FlowDiff = { added: string[]; removed: string[]; changed: string[] };
const stable = (v: unknown): string => JSON.stringify(v, (_k, val: unknown) => (val && typeof val === "object" && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => a.localeCompare(b))) : val));
type Graph = { nodes: readonly { id: string; type: string; data?: unknown }[]; edges: readonly { source: string; target: string; sourceHandle?: string | null }[] };
export function diffFlows(before: Graph, after: Graph): FlowDiff {
  const old = new Map(before.nodes.map((n) => [n.id, n]));
  const now = new Map(after.nodes.map((n) => [n.id, n]));
  const outOf = (f: Graph, id: string) => stable(f.edges.filter((e) => e.source === id).map((e) => `${e.sourceHandle || "default"}>${e.target}`).sort());
  const added = [...now.keys()].filter((id) => !old.has(id));
  const removed = [...old.keys()].filter((id) => !now.has(id));
  const changed = [...now.keys()].filter((id) => {
    const a = old.get(id);
    const b = now.get(id)!;
    return a && (a.type !== b.type || stable(a.data ?? {}) !== stable(b.data ?? {}) || outOf(before, id) !== outOf(after, id));
  });
  return { added, removed, changed };
}
