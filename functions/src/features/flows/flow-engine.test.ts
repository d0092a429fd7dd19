import { describe, expect, it } from "vitest";
import { flowSchema, type FlowInput as FlowDoc } from "@atende/shared/domain/flows/flow";
import { matchMenuOption, menuMessage, readJsonPath, renderText, runFlow, type FlowDeps, type FlowInput, type FlowState } from "./flow-engine";

const doc: FlowDoc = {
  name: "Pedidos",
  nodes: [
    { id: "start", type: "start", data: {} },
    { id: "hi", type: "message", data: { text: "Olá {{contact.name}}! Protocolo {{protocol}}" } },
    { id: "email", type: "question", data: { text: "Seu e-mail?", saveAs: "contact.email", validate: "email", invalidText: "E-mail inválido", retries: 1 } },
    { id: "look", type: "http", data: { url: "http://x/orders?e={{contact.email}}", saveAs: { "vars.order": "$.orders[0].id" } } },
    { id: "menu", type: "menu", data: { text: "Pedido {{vars.order}}. Escolha:", options: [{ id: "sales", label: "Vendas" }, { id: "support", label: "Suporte Técnico" }] } },
    { id: "toSales", type: "transfer", data: { queueId: 7 } },
    { id: "bye", type: "end", data: { text: "Tchau", closeTicket: true } },
  ],
  edges: [
    { source: "start", target: "hi" },
    { source: "hi", target: "email" },
    { source: "email", target: "look" },
    { source: "look", target: "menu", sourceHandle: "success" },
    { source: "menu", target: "toSales", sourceHandle: "sales" },
    { source: "menu", target: "bye", sourceHandle: "support" },
  ],
};
const flow = flowSchema.parse(doc);
const ctx = { flow, flowId: 1, version: 1, channel: "qr" as const, contact: { name: "Ana", number: "5511999", email: "", extra: {} }, protocol: "P-1" };
const deps = (over: Partial<FlowDeps> = {}): FlowDeps => ({
  http: async () => ({ status: 200, json: { orders: [{ id: 42 }] } }),
  ai: async () => ({ messages: ["ok"], outcome: "done" }),
  inBusinessHours: async () => true,
  media: async () => ({ kind: "media", caption: "", fileName: "a.pdf", mimetype: "application/pdf" }),
  now: () => new Date("2026-01-01T12:00:00Z"),
  ...over,
});
const say = (text: string): FlowInput => ({ kind: "message", text });

describe("flow engine (issue 30)", () => {
  it("greets, asks the e-mail (invalid then valid), looks the order up, shows the menu, transfers", async () => {
    const d = deps();
    let r = await runFlow(ctx, null, { kind: "start", text: "oi" }, d);
    expect(r.out).toEqual([{ kind: "text", body: "Olá Ana! Protocolo P-1" }, { kind: "text", body: "Seu e-mail?" }]);
    expect(r.status).toBe("waiting");
    expect(r.state.nodeId).toBe("email");
    r = await runFlow(ctx, r.state, say("ana@"), d);
    expect(r.out.map((m) => (m as { body: string }).body)).toEqual(["E-mail inválido", "Seu e-mail?"]);
    r = await runFlow({ ...ctx }, r.state, say("ana@x.com"), d);
    expect(r.actions).toContainEqual({ type: "saveContact", field: "email", value: "ana@x.com" });
    expect(r.out).toEqual([{ kind: "text", body: "Pedido 42. Escolha:\n\n1 - Vendas\n2 - Suporte Técnico" }]);
    expect(r.state.vars.order).toBe("42");
    const menuState: FlowState = r.state;
    r = await runFlow(ctx, menuState, say("suporte tecnico"), d);
    expect(r.status).toBe("ended");
    expect(r.actions).toContainEqual({ type: "close" });
    r = await runFlow(ctx, menuState, say("1"), d);
    expect(r.status).toBe("transferred");
    expect(r.actions).toEqual([{ type: "transfer", queueId: 7, userId: null }]);
    expect(r.counters).toEqual([
      { nodeId: "menu", kind: "exited" },
      { nodeId: "toSales", kind: "entered" },
      { nodeId: "toSales", kind: "exited" },
    ]);
  });

  it("a failing http without an error exit leaves for the queue with our own note", async () => {
    const d = deps({ http: async () => ({ status: 500, json: { secret: "outside body" } }) });
    let r = await runFlow(ctx, null, { kind: "start" }, d);
    r = await runFlow(ctx, r.state, say("ana@x.com"), d);
    expect(r.status).toBe("left");
    const note = (r.actions.find((a) => a.type === "handover") as { note: string }).note;
    expect(note).toContain("HTTP 500");
    expect(note).not.toContain("outside body");
    expect(r.counters).toContainEqual({ nodeId: "look", kind: "dropped" });
  });

  it("a failing ai node without a handover exit leaves for the queue with our own note; with one, takes it", async () => {
    const aiFlow = (withExit: boolean) =>
      flowSchema.parse({
        name: "IA",
        nodes: [
          { id: "start", type: "start", data: {} },
          { id: "bot", type: "ai", data: { promptId: 3 } },
          { id: "people", type: "transfer", data: { queueId: 2 } },
          { id: "bye", type: "end", data: { text: "Tchau" } },
        ],
        edges: [{ source: "start", target: "bot" }, { source: "bot", target: "bye", sourceHandle: "done" }, ...(withExit ? [{ source: "bot", target: "people", sourceHandle: "handover" }] : [])],
      });
    const d = deps({ ai: async () => Promise.reject(Object.assign(new Error("model down: secret body"), { code: "x" })) });
    const c1 = { ...ctx, flow: aiFlow(false) };
    let r = await runFlow(c1, null, { kind: "start" }, d);
    expect(r.status).toBe("waiting");
    r = await runFlow(c1, r.state, say("oi"), d);
    expect(r.status).toBe("left");
    expect((r.actions.find((a) => a.type === "handover") as { note: string }).note).toContain("a IA falhou");
    expect(r.counters).toContainEqual({ nodeId: "bot", kind: "dropped" });
    const c2 = { ...ctx, flow: aiFlow(true) };
    r = await runFlow(c2, await runFlow(c2, null, { kind: "start" }, d).then((x) => x.state), say("oi"), d);
    expect(r.status).toBe("transferred");
    expect(r.actions).toContainEqual({ type: "transfer", queueId: 2, userId: null });
  });

  it("a media node sends every file it answers, the caption rendered on the first", async () => {
    const f = flowSchema.parse({
      name: "Catálogo",
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "cat", type: "media", data: { fileListId: 9, caption: "Para {{contact.name}}" } },
        { id: "bye", type: "end", data: {} },
      ],
      edges: [{ source: "start", target: "cat" }, { source: "cat", target: "bye" }],
    });
    const files = deps({
      media: async (n) => [
        { kind: "media", caption: n.data.caption ?? "", fileName: "a.png", mimetype: "image/png", key: "1/a/a.png" },
        { kind: "media", caption: "", fileName: "b.pdf", mimetype: "application/pdf", key: "1/b/b.pdf" },
      ],
    });
    const r = await runFlow({ ...ctx, flow: f }, null, { kind: "start" }, files);
    expect(r.out).toEqual([
      { kind: "media", caption: "Para Ana", fileName: "a.png", mimetype: "image/png", key: "1/a/a.png" },
      { kind: "media", caption: "", fileName: "b.pdf", mimetype: "application/pdf", key: "1/b/b.pdf" },
    ]);
  });

  it("the exit word leaves the flow; too many bad answers drop at the node", async () => {
    const d = deps();
    const first = await runFlow(ctx, null, { kind: "start" }, d);
    const r = await runFlow(ctx, first.state, say("Quero um ATENDENTE"), d);
    expect(r.status).toBe("left");
    expect(r.counters).toEqual([{ nodeId: "email", kind: "dropped" }]);
    let s = await runFlow(ctx, first.state, say("x"), d);
    s = await runFlow(ctx, s.state, say("y"), d);
    expect(s.status).toBe("left");
    const off = await runFlow({ ...ctx, flow: { ...flow, exitWords: [] } }, first.state, say("sair"), d);
    expect(off.status).toBe("waiting");
  });

  it("menus: Cloud API buttons ≤ 3 and lists ≤ 10; answers by id, number or label", () => {
    const menu = flow.nodes.find((n) => n.id === "menu")! as Extract<(typeof flow.nodes)[number], { type: "menu" }>;
    expect(menuMessage("x", menu, "cloudapi")).toEqual({ kind: "buttons", body: "x", buttons: [{ id: "sales", title: "Vendas" }, { id: "support", title: "Suporte Técnico" }], text: "x\n\n1 - Vendas\n2 - Suporte Técnico" });
    const big = { ...menu, data: { ...menu.data, options: Array.from({ length: 5 }, (_, i) => ({ id: `o${i}`, label: `Op ${i}` })) } };
    expect(menuMessage("x", big, "cloudapi").kind).toBe("list");
    expect(matchMenuOption(menu, "", "support")).toBe("support");
    expect(matchMenuOption(menu, "2")).toBe("support");
    expect(matchMenuOption(menu, "VENDAS")).toBe("sales");
    expect(matchMenuOption(menu, "3")).toBeNull();
    // a pressed button arrives as its title: the label cut to 20 characters
    const long = { ...menu, data: { ...menu.data, options: [{ id: "l", label: "Segunda via do boleto bancário" }] } };
    expect(matchMenuOption(long, "Segunda via do bolet")).toBe("l");
  });

  it("condition, wait via timer, variables and JSON paths", async () => {
    const f = flowSchema.parse({
      name: "c",
      nodes: [
        { id: "s", type: "start" },
        { id: "c", type: "condition", data: { rules: [{ op: "inBusinessHours" }, { left: "{{vars.n}}", op: "gt", right: "3" }], match: "all" } },
        { id: "w", type: "wait", data: { seconds: 60 } },
        { id: "yes", type: "end", data: { text: "aberto" } },
        { id: "no", type: "end", data: { text: "fechado" } },
      ],
      edges: [
        { source: "s", target: "w" },
        { source: "w", target: "c" },
        { source: "c", target: "yes", sourceHandle: "true" },
        { source: "c", target: "no", sourceHandle: "false" },
      ],
    });
    const c2 = { ...ctx, flow: f };
    const r = await runFlow(c2, { flowId: 1, version: 1, nodeId: null, vars: { n: "5" }, tries: 0 }, { kind: "start" }, deps());
    expect(r.status).toBe("waiting-timer");
    expect(r.state.waitUntil).toBe("2026-01-01T12:01:00.000Z");
    expect((await runFlow(c2, r.state, say("oi"), deps())).status).toBe("waiting-timer");
    expect((await runFlow(c2, r.state, { kind: "timer" }, deps())).out).toEqual([{ kind: "text", body: "aberto" }]);
    expect((await runFlow(c2, r.state, { kind: "timer" }, deps({ inBusinessHours: async () => false }))).out).toEqual([{ kind: "text", body: "fechado" }]);
    expect(renderText("{{vars.a}}|{{contact.extra.cpf}}|{{nope}}", { a: "1" }, { ...ctx.contact, extra: { cpf: "9" } }, "p")).toBe("1|9|{{nope}}");
    expect(readJsonPath({ a: [{ b: 2 }] }, "$.a[0].b")).toBe(2);
  });
});
