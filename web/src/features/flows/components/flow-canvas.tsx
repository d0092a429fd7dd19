import { Background, Controls, MiniMap, ReactFlow, useReactFlow, type Connection, type Edge, type EdgeChange, type NodeChange, type NodeTypes } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { Box } from "@mui/material";
import { useCallback, useMemo, useState, type DragEvent } from "react";
import type { FlowStatsResponse } from "@atende/shared/contracts/http/flows";
import type { FlowNodeType } from "@atende/shared/domain/flows/flow";
import { docOutHandles, edgeIdOf, type DocValidation, type FlowDoc } from "../model/doc";
import { FlowNodeView, type CanvasNode } from "./flow-node";
import { DRAG_MIME } from "./palette";

const nodeTypes: NodeTypes = { flow: FlowNodeView };

export type CanvasProps = {
  doc: FlowDoc;
  validation: DocValidation;
  stats?: FlowStatsResponse["nodes"];
  readOnly: boolean;
  selected: ReadonlySet<string>;
  highlight?: string | null;
  onSelect: (ids: Set<string>) => void;
  /** `key`: changes with the same key in a burst are one undo step (a drag) */
  onChange: (doc: FlowDoc, key?: string) => void;
  onDropType: (type: FlowNodeType, position: { x: number; y: number }) => void;
};

/** The React Flow canvas of a flow document: it draws the document and turns the canvas's changes into new documents. */
export function FlowCanvas({ doc, validation, stats, readOnly, selected, highlight, onSelect, onChange, onDropType }: CanvasProps) {
  const rf = useReactFlow();
  // React Flow measures each node; the document has no place for that, so the sizes live here
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});

  const nodes: CanvasNode[] = useMemo(
    () =>
      doc.nodes.map((n) => ({
        id: n.id,
        type: "flow",
        position: n.position,
        selected: selected.has(n.id),
        deletable: !readOnly && n.type !== "start",
        measured: measured[n.id],
        className: highlight === n.id ? "flow-node-current" : undefined,
        data: { node: n, handles: docOutHandles(n), issues: validation.byNode[n.id], stats: stats ? (stats[n.id] ?? { entered: 0, exited: 0, dropped: 0 }) : undefined },
      })),
    [doc.nodes, selected, readOnly, measured, highlight, validation, stats],
  );
  const edges: Edge[] = useMemo(() => doc.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, sourceHandle: e.sourceHandle || "default", deletable: !readOnly })), [doc.edges, readOnly]);

  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      let next = doc;
      let key: string | undefined;
      const sizes: Record<string, { width: number; height: number }> = {};
      let selection: Set<string> | null = null;
      const removed = new Set<string>();
      for (const c of changes) {
        if (c.type === "dimensions" && c.dimensions) sizes[c.id] = c.dimensions;
        else if (c.type === "position" && c.position && !readOnly) {
          const pos = c.position;
          next = { ...next, nodes: next.nodes.map((n) => (n.id === c.id ? { ...n, position: { x: Math.round(pos.x), y: Math.round(pos.y) } } : n)) };
          key = `drag:${c.id}`;
        } else if (c.type === "select") {
          selection ??= new Set(selected);
          if (c.selected) selection.add(c.id);
          else selection.delete(c.id);
        } else if (c.type === "remove" && !readOnly) removed.add(c.id);
      }
      if (removed.size) {
        next = { ...next, nodes: next.nodes.filter((n) => !removed.has(n.id) || n.type === "start"), edges: next.edges.filter((e) => !removed.has(e.source) && !removed.has(e.target)) };
        key = undefined;
      }
      if (Object.keys(sizes).length) setMeasured((m) => ({ ...m, ...sizes }));
      if (selection) onSelect(selection);
      if (next !== doc) onChange(next, key);
    },
    [doc, readOnly, selected, onSelect, onChange],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      if (readOnly) return;
      const removed = new Set(changes.filter((c) => c.type === "remove").map((c) => c.id));
      if (removed.size) onChange({ ...doc, edges: doc.edges.filter((e) => !removed.has(e.id)) });
    },
    [doc, readOnly, onChange],
  );

  /** One edge per out-handle: connecting a handle again moves its edge. */
  const onConnect = useCallback(
    (c: Connection) => {
      if (readOnly || !c.source || !c.target || c.source === c.target) return;
      const handle = c.sourceHandle && c.sourceHandle !== "default" ? c.sourceHandle : null;
      const edge = { source: c.source, target: c.target, sourceHandle: handle };
      const kept = doc.edges.filter((e) => !(e.source === c.source && (e.sourceHandle || null) === handle));
      onChange({ ...doc, edges: [...kept, { ...edge, id: edgeIdOf(edge) }] });
    },
    [doc, readOnly, onChange],
  );

  const onDrop = (e: DragEvent) => {
    const type = e.dataTransfer.getData(DRAG_MIME) as FlowNodeType;
    if (!type || readOnly) return;
    e.preventDefault();
    onDropType(type, rf.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
  };

  return (
    <Box
      sx={{ flex: 1, minHeight: 0, height: "100%", "& .flow-node-current > div": { outline: "3px solid", outlineColor: "secondary.main" } }}
      data-testid="flow-canvas"
      onDragOver={(e) => {
        if (readOnly) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
      }}
      onDrop={onDrop}
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        elementsSelectable
        deleteKeyCode={readOnly ? null : ["Delete", "Backspace"]}
        fitView
        minZoom={0.2}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
        <MiniMap pannable zoomable />
      </ReactFlow>
    </Box>
  );
}
