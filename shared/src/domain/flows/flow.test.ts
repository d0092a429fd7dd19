import { describe, expect, it } from "vitest";
import { FLOW_LIMITS, flowSchema, outHandles, unknownVariables, type FlowInput } from "./flow";
import { validateFlow } from "./flow-validate";

const base: FlowInput = {
  name: "Atendimento",
  nodes: [
    { id: "s", type: "start", data: {} },
    { id: "hi", type: "message", data: { text: "Olá {{contact.name}}" } },
    { id: "q", type: "question", data: { text: "Seu e-mail?", saveAs: "contact.email", validate: "email" } },
    { id: "m", type: "menu", data: { text: "Escolha", options: [{ id: "a", label: "Vendas" }, { id: "b", label: "Suporte" }] } },
    { id: "t", type: "transfer", data: { queueId: 1 } },
    { id: "e", type: "end", data: { closeTicket: true } },
  ],
  edges: [
    { source: "s", target: "hi" },
    { source: "hi", target: "q" },
    { source: "q", target: "m" },
    { source: "m", target: "t", sourceHandle: "a" },
    { source: "m", target: "e", sourceHandle: "b" },
  ],
};
const parse = (f: FlowInput) => flowSchema.parse(f);

describe("flow schema (issue 30)", () => {
  it("parses a valid flow with defaults and validates clean", () => {
    const f = parse(base);
    expect(f.exitWords).toEqual(["sair", "atendente"]);
    expect(validateFlow(f)).toEqual({ ok: true, errors: [], warnings: [] });
    expect(outHandles(f.nodes[3]!)).toEqual(["a", "b", "invalid"]);
  });

  it("refuses more than 500 nodes, text over 4,096, a bad node's data", () => {
    const many = Array.from({ length: FLOW_LIMITS.maxNodes + 1 }, (_, i) => ({ id: `n${i}`, type: "message" as const, data: { text: "x" } }));
    expect(flowSchema.safeParse({ ...base, nodes: many }).success).toBe(false);
    expect(flowSchema.safeParse({ ...base, nodes: [{ id: "x", type: "message", data: { text: "x".repeat(4097) } }] }).success).toBe(false);
    expect(flowSchema.safeParse({ ...base, nodes: [{ id: "x", type: "question", data: { text: "a", saveAs: "foo" } }] }).success).toBe(false);
    expect(flowSchema.safeParse({ ...base, nodes: [{ id: "x", type: "http", data: { url: "ftp://a" } }] }).success).toBe(false);
    expect(flowSchema.safeParse({ ...base, nodes: [{ id: "x", type: "transfer", data: {} }] }).success).toBe(false);
    expect(flowSchema.safeParse({ ...base, nodes: [{ id: "x", type: "http", data: { url: "https://a", timeoutMs: 20_000 } }] }).success).toBe(false);
  });

  it("finds the node at fault: no start, two starts, edge to a missing node, a menu option without an edge", () => {
    const noStart = parse({ ...base, nodes: base.nodes.slice(1), edges: base.edges.slice(1) });
    expect(validateFlow(noStart).errors).toContainEqual({ code: "NO_START" });
    const two = parse({ ...base, nodes: [...base.nodes, { id: "s2", type: "start", data: {} }] });
    expect(validateFlow(two).errors).toContainEqual({ code: "MANY_STARTS", nodeId: "s2" });
    const missing = parse({ ...base, edges: [...base.edges.slice(0, 4), { id: "x", source: "m", target: "gone", sourceHandle: "b" }] });
    expect(validateFlow(missing).errors).toEqual(expect.arrayContaining([{ code: "EDGE_MISSING_NODE", nodeId: "m", edgeId: "x" }, { code: "MENU_OPTION_NO_EDGE", nodeId: "m", handle: "b" }]));
  });

  it("refuses a loop without a customer input; a loop through a menu is fine", () => {
    const loop = parse({ ...base, edges: [...base.edges.slice(0, 1), { source: "hi", target: "hi" }, ...base.edges.slice(2)] });
    const v = validateFlow(loop);
    expect(v.errors).toContainEqual({ code: "LOOP_WITHOUT_INPUT", nodeId: "hi", nodeIds: ["hi"] });
    const viaMenu = parse({ ...base, edges: [...base.edges.slice(0, 4), { source: "m", target: "hi", sourceHandle: "b" }] });
    expect(validateFlow(viaMenu).ok).toBe(true);
  });

  it("only warns on an unreachable node and an unknown variable", () => {
    const f = parse({ ...base, nodes: [...base.nodes, { id: "lost", type: "message", data: { text: "{{foo}} {{vars.ok}}" } }] });
    const v = validateFlow(f);
    expect(v.ok).toBe(true);
    expect(v.warnings).toEqual(expect.arrayContaining([{ code: "UNREACHABLE", nodeId: "lost" }, { code: "UNKNOWN_VARIABLE", nodeId: "lost", handle: "foo" }]));
    expect(unknownVariables("{{protocol}} {{contact.extra.cpf}} {{ vars.x }} {{x.y}}")).toEqual(["x.y"]);
  });
});
