import { CUSTOMER_INPUT_TYPES, edgeHandle, outHandles, unknownVariables, type Flow, type FlowNode } from "./flow";

/**
 * Issue 30: the graph rules. Errors make a flow refused on save (ERR_FLOW_INVALID with them in `data`); warnings are
 * shown on the nodes but the flow saves and publishes.
 */
export type FlowIssueCode =
  | "NO_START"
  | "MANY_STARTS"
  | "DUPLICATED_NODE_ID"
  | "EDGE_MISSING_NODE"
  | "EDGE_UNKNOWN_HANDLE"
  | "HANDLE_MANY_EDGES"
  | "MENU_OPTION_NO_EDGE"
  | "LOOP_WITHOUT_INPUT"
  | "UNREACHABLE"
  | "DEAD_END"
  | "UNKNOWN_VARIABLE";

export type FlowIssue = {
  code: FlowIssueCode;
  /** the node at fault (for an edge: its source when it exists, else its target) */
  nodeId?: string;
  edgeId?: string;
  /** the menu option or out-handle at fault */
  handle?: string;
  /** the nodes of a loop */
  nodeIds?: string[];
};

export type FlowValidation = { ok: boolean; errors: FlowIssue[]; warnings: FlowIssue[] };

const textsOf = (n: FlowNode): string[] => {
  const d = n.data as Record<string, unknown>;
  const out: string[] = [];
  for (const k of ["text", "invalidText", "caption", "url", "body"]) if (typeof d[k] === "string") out.push(d[k] as string);
  if (n.type === "http") out.push(...Object.values(n.data.headers ?? {}));
  if (n.type === "condition") for (const r of n.data.rules) out.push(r.left ?? "", r.right ?? "");
  return out;
};

/** Pure: no I/O. Takes a flow that passed flowSchema. */
export function validateFlow(flow: Pick<Flow, "nodes" | "edges">): FlowValidation {
  const errors: FlowIssue[] = [];
  const warnings: FlowIssue[] = [];
  const byId = new Map<string, FlowNode>();
  for (const n of flow.nodes) {
    if (byId.has(n.id)) errors.push({ code: "DUPLICATED_NODE_ID", nodeId: n.id });
    else byId.set(n.id, n);
  }
  const starts = flow.nodes.filter((n) => n.type === "start");
  if (starts.length === 0) errors.push({ code: "NO_START" });
  for (const s of starts.slice(1)) errors.push({ code: "MANY_STARTS", nodeId: s.id });

  /** next[source][handle] = target */
  const next = new Map<string, Map<string, string>>();
  flow.edges.forEach((e, i) => {
    const edgeId = e.id ?? `#${i}`;
    const src = byId.get(e.source);
    if (!src || !byId.has(e.target)) {
      errors.push({ code: "EDGE_MISSING_NODE", nodeId: src ? e.source : e.target, edgeId });
      return;
    }
    const handle = edgeHandle(e);
    if (!outHandles(src).includes(handle)) {
      errors.push({ code: "EDGE_UNKNOWN_HANDLE", nodeId: src.id, edgeId, handle });
      return;
    }
    const m = next.get(src.id) ?? new Map<string, string>();
    if (m.has(handle)) errors.push({ code: "HANDLE_MANY_EDGES", nodeId: src.id, edgeId, handle });
    else m.set(handle, e.target);
    next.set(src.id, m);
  });

  for (const n of flow.nodes) {
    if (n.type === "menu")
      for (const o of n.data.options) if (!next.get(n.id)?.has(o.id)) errors.push({ code: "MENU_OPTION_NO_EDGE", nodeId: n.id, handle: o.id });
    for (const t of textsOf(n)) for (const v of unknownVariables(t)) warnings.push({ code: "UNKNOWN_VARIABLE", nodeId: n.id, handle: v });
    const hs = outHandles(n);
    if (hs.length > 0 && n.type !== "menu" && !(next.get(n.id)?.size ?? 0)) warnings.push({ code: "DEAD_END", nodeId: n.id });
  }

  // reachability from the start
  const reached = new Set<string>();
  const stack = starts.slice(0, 1).map((s) => s.id);
  while (stack.length) {
    const id = stack.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    for (const t of next.get(id)?.values() ?? []) stack.push(t);
  }
  if (starts.length > 0) for (const n of flow.nodes) if (!reached.has(n.id)) warnings.push({ code: "UNREACHABLE", nodeId: n.id });

  // a loop with no node that waits for the customer would run forever: find cycles in the graph without input nodes
  const isInput = (id: string) => CUSTOMER_INPUT_TYPES.includes(byId.get(id)!.type);
  const color = new Map<string, 0 | 1 | 2>();
  const path: string[] = [];
  const reportedLoops = new Set<string>();
  const visit = (id: string): void => {
    color.set(id, 1);
    path.push(id);
    for (const t of next.get(id)?.values() ?? []) {
      if (isInput(t)) continue;
      const c = color.get(t) ?? 0;
      if (c === 1) {
        const loop = path.slice(path.indexOf(t));
        const key = [...loop].sort().join(",");
        if (!reportedLoops.has(key)) {
          reportedLoops.add(key);
          errors.push({ code: "LOOP_WITHOUT_INPUT", nodeId: t, nodeIds: loop });
        }
      } else if (c === 0) visit(t);
    }
    path.pop();
    color.set(id, 2);
  };
  for (const n of flow.nodes) if (!isInput(n.id) && (color.get(n.id) ?? 0) === 0) visit(n.id);

  return { ok: errors.length === 0, errors, warnings };
}
