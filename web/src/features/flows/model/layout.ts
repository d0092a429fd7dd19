import dagre from "@dagrejs/dagre";
import type { FlowDoc } from "./doc";

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 90;

/** Auto-layout (dagre, top to bottom): new positions for every node; edges and data unchanged. */
export function autoLayout(doc: FlowDoc): FlowDoc {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: 40, ranksep: 60 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of doc.nodes) g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const e of doc.edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
  dagre.layout(g);
  return {
    ...doc,
    nodes: doc.nodes.map((n) => {
      const p = g.node(n.id);
      return p ? { ...n, position: { x: Math.round(p.x - NODE_WIDTH / 2), y: Math.round(p.y - NODE_HEIGHT / 2) } } : n;
    }),
  };
}
