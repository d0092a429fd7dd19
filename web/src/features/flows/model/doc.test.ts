import { describe, expect, it } from "vitest";
import { copyNodes, diffFlows, docFromFlow, emptyDoc, exportFlowJson, importFlowJson, pasteNodes, validateDoc, type FlowDoc } from "./doc";
import { createHistory, historyReducer } from "./history";
import { autoLayout } from "./layout";

const menuFlow = (): FlowDoc => ({
  ...emptyDoc("Vendas"),
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
    { id: "menu", type: "menu", position: { x: 0, y: 100 }, data: { text: "Escolha", options: [{ id: "1", label: "Vendas" }, { id: "2", label: "Suporte" }] } },
    { id: "q", type: "transfer", position: { x: 0, y: 200 }, data: { queueId: 1 } },
  ],
  edges: [
    { id: "a", source: "start", target: "menu" },
    { id: "b", source: "menu", target: "q", sourceHandle: "1" },
  ],
});

describe("validateDoc (the shared validateFlow on the editor's document)", () => {
  it("marks the menu whose option has no edge as an error, with the option", () => {
    const v = validateDoc(menuFlow());
    expect(v.byNode.menu?.errors).toEqual([expect.objectContaining({ code: "MENU_OPTION_NO_EDGE", handle: "2" })]);
    expect(v.byNode.q).toBeUndefined();
  });
  it("marks an unreachable node as a warning only", () => {
    const doc = menuFlow();
    doc.edges.push({ id: "c", source: "menu", target: "q", sourceHandle: "2" });
    doc.nodes.push({ id: "lost", type: "end", position: { x: 0, y: 0 }, data: {} });
    const v = validateDoc(doc);
    expect(v.errors).toEqual([]);
    expect(v.byNode.lost?.warnings.map((w) => w.code)).toEqual(["UNREACHABLE"]);
  });
  it("keeps the field errors of a half-filled node (the shared node schema) and still checks the graph", () => {
    const doc = menuFlow();
    doc.nodes[1] = { ...doc.nodes[1]!, data: { text: "", options: [{ id: "1", label: "" }] } };
    const v = validateDoc(doc);
    expect(v.byNode.menu?.fields.map((f) => f.path).sort()).toEqual(["options.0.label", "text"]);
    expect(v.fieldErrorCount).toBe(2);
  });
});

describe("import and export", () => {
  it("round-trips a document through JSON", () => {
    const doc = menuFlow();
    const back = importFlowJson(exportFlowJson(doc));
    expect(back.ok && back.doc.nodes.map((n) => n.id)).toEqual(["start", "menu", "q"]);
    expect(back.ok && back.doc.edges.find((e) => e.id === "b")?.sourceHandle).toBe("1");
  });
  it("refuses a file that is not JSON or not a flow", () => {
    expect(importFlowJson("{oops")).toEqual({ ok: false, error: "notJson" });
    const r = importFlowJson(JSON.stringify({ name: "x", nodes: [{ id: "a", type: "teleport", data: {} }], edges: [] }));
    expect(r.ok).toBe(false);
  });
  it("gives nodes without a position a place", () => {
    const doc = docFromFlow({ name: "x", nodes: [{ id: "start", type: "start", data: {} }, { id: "m", type: "message", data: { text: "oi" } }], edges: [] });
    expect(doc.nodes[1]?.position).toEqual({ x: 0, y: 120 });
  });
});

describe("copy and paste", () => {
  it("pastes the chosen nodes with new ids and the edges between them, never the start", () => {
    const doc = menuFlow();
    const clip = copyNodes(doc, new Set(["start", "menu", "q"]));
    expect(clip.nodes.map((n) => n.id)).toEqual(["menu", "q"]);
    const { doc: next, pastedIds } = pasteNodes(doc, clip);
    expect(next.nodes).toHaveLength(5);
    expect(pastedIds.every((id) => !["menu", "q"].includes(id))).toBe(true);
    const pastedEdge = next.edges.find((e) => e.source === pastedIds[0]);
    expect(pastedEdge).toMatchObject({ target: pastedIds[1], sourceHandle: "1" });
    expect(next.nodes.find((n) => n.id === pastedIds[0])?.position).toEqual({ x: 40, y: 140 });
  });
});

describe("diffFlows", () => {
  it("lists nodes added, removed and changed (data or links), not moved ones", () => {
    const before = menuFlow();
    const after: FlowDoc = structuredClone(before);
    after.nodes[0]!.position = { x: 500, y: 500 };
    after.nodes[1]!.data = { ...after.nodes[1]!.data, text: "Escolha uma opção" };
    after.nodes = after.nodes.filter((n) => n.id !== "q");
    after.nodes.push({ id: "bye", type: "end", position: { x: 0, y: 0 }, data: {} });
    expect(diffFlows(before, after)).toEqual({ added: ["bye"], removed: ["q"], changed: ["menu"] });
  });
});

describe("history", () => {
  it("undoes and redoes, and a burst with one key is one step", () => {
    let h = createHistory(1);
    h = historyReducer(h, { type: "set", next: 2 });
    h = historyReducer(h, { type: "set", next: 3, key: "data:x", at: 1000 });
    h = historyReducer(h, { type: "set", next: 4, key: "data:x", at: 1500 });
    h = historyReducer(h, { type: "set", next: 5, key: "data:x", at: 5000 });
    expect(h.past).toEqual([1, 2, 4]);
    h = historyReducer(h, { type: "undo" });
    h = historyReducer(h, { type: "undo" });
    expect(h.present).toBe(2);
    h = historyReducer(h, { type: "redo" });
    expect(h.present).toBe(4);
    h = historyReducer(h, { type: "set", next: 9 });
    expect(h.future).toEqual([]);
    expect(historyReducer(createHistory(0), { type: "undo" }).present).toBe(0);
  });
});

describe("autoLayout", () => {
  it("puts each step below the one before it", () => {
    const doc = autoLayout(menuFlow());
    const y = (id: string) => doc.nodes.find((n) => n.id === id)!.position.y;
    expect(y("start")).toBeLessThan(y("menu"));
    expect(y("menu")).toBeLessThan(y("q"));
  });
});
