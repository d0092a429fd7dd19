import { Box, Tab, Tabs, Typography, useMediaQuery, useTheme } from "@mui/material";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { FlowInvalidData, FlowResponse } from "@atende/shared/contracts/http/flows";
import type { FlowIssue } from "@atende/shared/domain/flows/flow-validate";
import type { FlowNodeType } from "@atende/shared/domain/flows/flow";
import { ApiError } from "../../../lib/api-client";
import { toast } from "../../../lib/toast";
import { errorMessage } from "../../../lib/toast-error";
import { useFlowStats, usePublishFlow, useSaveFlow } from "../api/flows";
import { DEFAULT_DATA, copyNodes, docFromFlow, emptyDoc, exportFlowJson, flowFromDoc, importFlowJson, newNodeId, pasteNodes, validateDoc, type Clipboard, type FlowDoc } from "../model/doc";
import { createHistory, historyReducer } from "../model/history";
import { autoLayout } from "../model/layout";
import { FlowSettings } from "./flow-settings";
import { FlowCanvas } from "./flow-canvas";
import { FlowToolbar } from "./flow-toolbar";
import { NodeInspector } from "./node-inspector";
import { Palette } from "./palette";
import { TestPanel } from "./test-panel";
import { VersionsPanel } from "./versions-panel";

const isTyping = (el: EventTarget | null) => el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));

/** The flow editor: one flow's document with undo/redo (ADR 0086), the canvas, the palette and the side panel. */
export function FlowEditor(props: { flow: FlowResponse | null }) {
  return (
    <ReactFlowProvider>
      <Editor {...props} />
    </ReactFlowProvider>
  );
}

function Editor({ flow }: { flow: FlowResponse | null }) {
  const { t } = useTranslation("flows");
  const theme = useTheme();
  const readOnly = useMediaQuery(theme.breakpoints.down("md"));
  const navigate = useNavigate();
  const rf = useReactFlow();
  const [history, dispatch] = useReducer(historyReducer<FlowDoc>, flow, (f) => createHistory(f ? docFromFlow(f) : emptyDoc(t("newFlowName"))));
  const doc = history.present;
  const [saved, setSaved] = useState<FlowDoc>(doc);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [panel, setPanel] = useState<"inspector" | "test" | "versions">("inspector");
  const [showStats, setShowStats] = useState(false);
  /** the server's ERR_FLOW_INVALID issues and the document they are about */
  const [serverIssues, setServerIssues] = useState<{ doc: FlowDoc; issues: FlowIssue[] } | null>(null);
  const [current, setCurrent] = useState<string | null>(null);
  const clipboard = useRef<Clipboard | null>(null);
  /** bumped when the document jumps (undo, redo, import): the inspector's form starts again from the node */
  const [revision, setRevision] = useState(0);
  const undo = useCallback(() => (dispatch({ type: "undo" }), setRevision((r) => r + 1)), []);
  const redo = useCallback(() => (dispatch({ type: "redo" }), setRevision((r) => r + 1)), []);
  const save = useSaveFlow();
  const publish = usePublishFlow();
  const stats = useFlowStats(flow?.id ?? null, showStats);

  const validation = useMemo(() => {
    const v = validateDoc(doc);
    // the server's ERR_FLOW_INVALID names the node at fault: shown until the next change
    if (serverIssues?.doc === doc) for (const issue of serverIssues.issues) if (issue.nodeId && !v.byNode[issue.nodeId]?.errors.some((e) => e.code === issue.code)) (v.byNode[issue.nodeId] ??= { fields: [], errors: [], warnings: [] }).errors.push(issue);
    return v;
  }, [doc, serverIssues]);
  const change = useCallback((next: FlowDoc, key?: string) => dispatch({ type: "set", next, key }), []);
  const dirty = doc !== saved;

  const addNode = useCallback(
    (type: FlowNodeType, position?: { x: number; y: number }) => {
      const taken = new Set(doc.nodes.map((n) => n.id));
      const id = type === "start" && !taken.has("start") ? "start" : newNodeId(type, taken);
      const at = position ?? rf.screenToFlowPosition({ x: window.innerWidth / 2, y: window.innerHeight / 2 });
      change({ ...doc, nodes: [...doc.nodes, { id, type, position: { x: Math.round(at.x), y: Math.round(at.y) }, data: structuredClone(DEFAULT_DATA[type]) }] });
      setSelected(new Set([id]));
      setPanel("inspector");
    },
    [doc, rf, change],
  );
  const copy = useCallback(() => {
    clipboard.current = copyNodes(doc, selected);
  }, [doc, selected]);
  const paste = useCallback(() => {
    if (!clipboard.current?.nodes.length) return;
    const { doc: next, pastedIds } = pasteNodes(doc, clipboard.current);
    change(next);
    setSelected(new Set(pastedIds));
  }, [doc, change]);

  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || isTyping(e.target)) return;
      const k = e.key.toLowerCase();
      if (k === "z" && !e.shiftKey) undo();
      else if ((k === "z" && e.shiftKey) || k === "y") redo();
      else if (k === "c") copy();
      else if (k === "v") paste();
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [readOnly, copy, paste, undo, redo]);

  const onSaveError = (sent: FlowDoc) => (e: unknown) => {
    if (e instanceof ApiError && e.code === "ERR_FLOW_INVALID") setServerIssues({ doc: sent, issues: (e.data as FlowInvalidData | undefined)?.errors ?? [] });
    toast.error(errorMessage(e));
  };
  const doSave = (then?: (f: FlowResponse) => void) => {
    const sent = doc;
    save.mutate(
      { id: flow?.id ?? null, flow: flowFromDoc(sent) as never },
      {
        onSuccess: (f) => {
          setSaved(sent);
          setServerIssues(null);
          if (!flow) navigate(`/flows/${f.id}`, { replace: true });
          if (then) then(f);
          else toast.success(t("saved"));
        },
        onError: onSaveError(sent),
      },
    );
  };
  const doPublish = () => {
    const run = (f: FlowResponse) =>
      publish.mutate(f.id, {
        onSuccess: (p) => {
          toast.success(t("published", { version: p.publishedVersion }));
          setPanel("versions");
        },
        onError: onSaveError(doc),
      });
    if (dirty || !flow) doSave(run);
    else run(flow);
  };
  const doImport = (text: string) => {
    const r = importFlowJson(text);
    if (!r.ok) return toast.error(t("importInvalid", { reason: r.error === "notJson" ? t("notJson") : r.error }));
    change({ ...r.doc, name: doc.name || r.doc.name });
    setRevision((v) => v + 1);
    toast.success(t("imported"));
  };
  const doExport = () => {
    const url = URL.createObjectURL(new Blob([exportFlowJson(doc)], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${doc.name || "flow"}.json`;
    a.click();
    URL.revokeObjectURL(url);
  };

  const one = selected.size === 1 ? doc.nodes.find((n) => selected.has(n.id)) : undefined;
  const problems = validation.errors.length + validation.fieldErrorCount;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "calc(100vh - 112px)", minHeight: 400 }} data-testid="flow-editor" data-dirty={dirty}>
      <FlowToolbar
        doc={doc}
        readOnly={readOnly}
        onRename={(name) => change({ ...doc, name }, "name")}
        canUndo={history.past.length > 0}
        canRedo={history.future.length > 0}
        onUndo={undo}
        onRedo={redo}
        onLayout={() => {
          change(autoLayout(doc));
          window.requestAnimationFrame(() => void rf.fitView());
        }}
        canCopy={selected.size > 0}
        onCopy={copy}
        onPaste={paste}
        onImport={doImport}
        onExport={doExport}
        onSave={() => doSave()}
        onPublish={doPublish}
        saving={save.isPending || publish.isPending}
        dirty={dirty || !flow}
        problems={problems}
        warnings={validation.warnings.length}
        showStats={showStats}
        onToggleStats={() => setShowStats((s) => !s)}
        publishedVersion={flow?.publishedVersion ?? null}
      />
      {readOnly && (
        <Typography variant="caption" sx={{ px: 1 }} color="text.secondary" data-testid="flow-read-only">
          {t("readOnly")}
        </Typography>
      )}
      <Box sx={{ display: "flex", flex: 1, minHeight: 0, border: 1, borderColor: "divider" }}>
        {!readOnly && <Palette onAdd={(type) => addNode(type)} hasStart={doc.nodes.some((n) => n.type === "start")} />}
        <FlowCanvas doc={doc} validation={validation} stats={showStats ? stats.data?.nodes : undefined} readOnly={readOnly} selected={selected} highlight={panel === "test" ? current : null} onSelect={setSelected} onChange={change} onDropType={addNode} />
        {!readOnly && (
          <Box sx={{ width: 340, borderLeft: 1, borderColor: "divider", display: "flex", flexDirection: "column", minHeight: 0 }}>
            <Tabs value={panel} onChange={(_e, v: typeof panel) => setPanel(v)} variant="fullWidth">
              <Tab value="inspector" label={t("tab.inspector")} data-testid="tab-inspector" />
              <Tab value="test" label={t("tab.test")} data-testid="tab-test" />
              <Tab value="versions" label={t("tab.versions")} data-testid="tab-versions" />
            </Tabs>
            <Box sx={{ flex: 1, overflowY: "auto", minHeight: 0 }}>
              {panel === "inspector" &&
                (one ? (
                  <NodeInspector
                    key={`${one.id}:${revision}`}
                    node={one}
                    onChange={(data) => change({ ...doc, nodes: doc.nodes.map((n) => (n.id === one.id ? { ...n, data } : n)) }, `data:${one.id}`)}
                    onDelete={() => change({ ...doc, nodes: doc.nodes.filter((n) => n.id !== one.id), edges: doc.edges.filter((e) => e.source !== one.id && e.target !== one.id) })}
                  />
                ) : (
                  <FlowSettings key={revision} doc={doc} onChange={(next) => change({ ...doc, ...next }, "settings")} />
                ))}
              {panel === "test" &&
                (flow ? (
                  <TestPanel flowId={flow.id} flow={() => flowFromDoc(doc)} onStep={setCurrent} />
                ) : (
                  <Typography sx={{ p: 2 }} color="text.secondary">
                    {t("saveFirst")}
                  </Typography>
                ))}
              {panel === "versions" && flow && <VersionsPanel flow={flow} />}
            </Box>
          </Box>
        )}
      </Box>
    </Box>
  );
}
