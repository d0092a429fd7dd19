import { foldText, matchHandoverKeyword } from "@atende/shared/domain/bots/handover-keywords";
import { checkAnswer } from "@atende/shared/domain/flows/answer-validators";
import { DEFAULT_HANDLE, FLOW_LIMITS, INVALID_HANDLE, edgeHandle, type Flow, type FlowNode, type FlowNodeOf } from "@atende/shared/domain/flows/flow";
import type { FlowOutMessage, FlowTestStep } from "@atende/shared/contracts/http/flows";

/**
 * The flow interpreter (issue 30, ADR 0083). Pure: every outside effect (http, AI, business hours, media) comes in
 * `deps`, so the same code runs a live conversation (bot runner turn, flow.engine.ts) and the page's test
 * (POST /api/flows/{id}/test, an in-memory channel). One call = one customer message (or the start, or a `wait` timer):
 * it walks nodes until one waits for the customer, a timer, or the flow ends, and answers the new state.
 */

export type FlowChannel = "qr" | "cloudapi";
export type FlowContact = { name: string; number: string; email: string; extra: Record<string, string> };

/** What is kept on the ticket between messages (the bot item's state, ADR 0026). */
export type FlowState = {
  flowId: number;
  version: number;
  /** the node waiting for the customer (menu, question, ai) or the timer (wait); null once the flow is over */
  nodeId: string | null;
  vars: Record<string, string>;
  /** failed answers at `nodeId` */
  tries: number;
  /** a `wait` node: when to go on (ISO) */
  waitUntil?: string;
};

export type FlowInput =
  /** the first message of a conversation the flow starts on */
  | { kind: "start"; text?: string }
  /** a customer message; `optionId` when a button/list row was pressed (Cloud API) */
  | { kind: "message"; text: string; optionId?: string }
  /** the scheduler: a `wait` node's time is up */
  | { kind: "timer" };

export type FlowCounter = { nodeId: string; kind: "entered" | "exited" | "dropped" };

export type FlowAction =
  | { type: "transfer"; queueId: number | null; userId: number | null }
  | { type: "close" }
  | { type: "addTag"; tagId: number }
  /** leave the flow for the queue (exit word, failure without an error exit) with an internal note */
  | { type: "handover"; note: string }
  | { type: "saveContact"; field: "name" | "email" | "extra"; key?: string; value: string };

export type FlowAiReply = { messages: string[]; outcome: "continue" | "handover" | "done" };

export type FlowDeps = {
  http(req: { method: string; url: string; headers: Record<string, string>; body?: string; timeoutMs: number }): Promise<{ status: number; json: unknown }>;
  ai(promptId: number, text: string, vars: Record<string, string>): Promise<FlowAiReply>;
  inBusinessHours(): Promise<boolean>;
  /** a `media` node's files (the file list's, or the uploaded one), the caption on the first */
  media(node: FlowNodeOf<"media">): Promise<FlowOutMessage | FlowOutMessage[]>;
  now(): Date;
};

export type FlowResult = {
  state: FlowState;
  status: "waiting" | "waiting-timer" | "transferred" | "ended" | "left" | "failed";
  out: FlowOutMessage[];
  actions: FlowAction[];
  counters: FlowCounter[];
  steps: FlowTestStep[];
  contact: FlowContact;
};

export type FlowRunContext = { flow: Flow; flowId: number; version: number; channel: FlowChannel; contact: FlowContact; protocol: string };

/** Guard against a graph the validator let through by mistake: never more steps than this in one call. */
const MAX_STEPS_PER_CALL = FLOW_LIMITS.maxNodes + 10;

export const FLOW_NOTES = {
  exitWord: (w: string) => `O cliente saiu do fluxo ("${w}") e aguarda um atendente.`,
  httpFailed: (node: string, why: string) => `O fluxo parou no nó ${node}: a chamada HTTP falhou (${why}).`,
  aiFailed: (node: string, why: string) => `O fluxo parou no nó ${node}: a IA falhou (${why}).`,
  aiHandover: (node: string) => `A IA do nó ${node} passou a conversa para um atendente.`,
  invalid: (node: string) => `O fluxo parou no nó ${node}: respostas inválidas.`,
  dead: (node: string) => `O fluxo terminou no nó ${node} sem próximo passo.`,
  missing: (node: string) => `O fluxo não encontrou o nó ${node}.`,
} as const;

/** `{{contact.name}}` ... replaced; an unknown variable stays as typed, an empty one becomes "". */
/** `encode`: how a value goes in (an http node's URL: encodeURIComponent, so a value cannot add parameters). */
export const renderText = (text: string, vars: Record<string, string>, contact: FlowContact, protocol: string, encode: (v: string) => string = (v) => v): string =>
  text.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (whole, name: string) => {
    const value = (): string | null => {
      if (name === "protocol") return protocol;
      if (name === "contact.name") return contact.name;
      if (name === "contact.number") return contact.number;
      if (name === "contact.email") return contact.email;
      if (name.startsWith("contact.extra.")) return contact.extra[name.slice(14)] ?? "";
      if (name.startsWith("vars.")) return vars[name.slice(5)] ?? "";
      return null;
    };
    const v = value();
    return v === null ? whole : encode(v);
  });

/** `$.a.b[0]` into a JSON value; `$.status` outside the body is handled by the caller. */
export const readJsonPath = (value: unknown, path: string): unknown => {
  let cur: unknown = value;
  for (const m of path.slice(1).matchAll(/\.([A-Za-z0-9_-]+)|\[(\d+)\]/g)) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = m[1] !== undefined ? (cur as Record<string, unknown>)[m[1]] : (cur as unknown[])[Number(m[2])];
  }
  return cur;
};

const asText = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v));

/** Cloud API limits: a reply button's title, a list row's title */
const BUTTON_TITLE_MAX = 20;
const ROW_TITLE_MAX = 24;

/** The customer's answer to a menu: the pressed option id, else the number ("2") or the label, accents and case ignored. */
export const matchMenuOption = (node: FlowNodeOf<"menu">, text: string, optionId?: string): string | null => {
  const opts = node.data.options;
  if (optionId && opts.some((o) => o.id === optionId)) return optionId;
  const t = foldText(text);
  if (!t) return null;
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  if (n >= 1 && n <= opts.length) return opts[n - 1]!.id;
  // a pressed button or list row arrives as its title: the label cut to the Cloud API's title length
  const same = (label: string) => [label, label.slice(0, BUTTON_TITLE_MAX), label.slice(0, ROW_TITLE_MAX)].some((l) => foldText(l) === t);
  return opts.find((o) => same(o.label) || o.id.toLowerCase() === t)?.id ?? null;
};

/** How a menu goes out: Cloud API reply buttons (≤ 3), a list (≤ 10); QR numbered text. */
export const menuMessage = (body: string, node: FlowNodeOf<"menu">, channel: FlowChannel): FlowOutMessage => {
  const opts = node.data.options;
  const text = [body, "", ...opts.map((o, i) => `${i + 1} - ${o.label}`)].join("\n");
  if (channel === "cloudapi" && opts.length <= FLOW_LIMITS.maxButtons)
    return { kind: "buttons", body, buttons: opts.map((o) => ({ id: o.id, title: o.label.slice(0, BUTTON_TITLE_MAX) })), text };
  if (channel === "cloudapi") return { kind: "list", body, button: "Opções", rows: opts.map((o) => ({ id: o.id, title: o.label.slice(0, ROW_TITLE_MAX) })), text };
  return { kind: "text", body: text };
};

/** Runs one call of a flow; see the file's comment. */
export async function runFlow(ctx: FlowRunContext, state: FlowState | null, input: FlowInput, deps: FlowDeps): Promise<FlowResult> {
  const { flow } = ctx;
  const nodes = new Map(flow.nodes.map((n) => [n.id, n]));
  const next = (n: FlowNode, handle: string) => flow.edges.find((e) => e.source === n.id && edgeHandle(e) === handle)?.target ?? null;
  const contact: FlowContact = { ...ctx.contact, extra: { ...ctx.contact.extra } };
  const st: FlowState = state ? { ...state, vars: { ...state.vars } } : { flowId: ctx.flowId, version: ctx.version, nodeId: null, vars: {}, tries: 0 };
  const out: FlowOutMessage[] = [];
  const actions: FlowAction[] = [];
  const counters: FlowCounter[] = [];
  const steps: FlowTestStep[] = [];
  const render = (t: string) => renderText(t, st.vars, contact, ctx.protocol);
  let stepOut: FlowOutMessage[] = [];
  const send = (m: FlowOutMessage) => {
    out.push(m);
    stepOut.push(m);
  };
  const record = (n: FlowNode, extra: Partial<FlowTestStep> = {}) => {
    steps.push({ nodeId: n.id, nodeType: n.type, out: stepOut, vars: { ...st.vars }, contact: { ...contact, extra: { ...contact.extra } }, ...extra });
    stepOut = [];
  };
  const save = (target: string, value: string) => {
    if (target.startsWith("vars.")) st.vars[target.slice(5)] = value;
    else if (target === "contact.email" || target === "contact.name") {
      contact[target === "contact.email" ? "email" : "name"] = value;
      actions.push({ type: "saveContact", field: target === "contact.email" ? "email" : "name", value });
    } else if (target.startsWith("contact.extra.")) {
      contact.extra[target.slice(14)] = value;
      actions.push({ type: "saveContact", field: "extra", key: target.slice(14), value });
    }
  };
  const result = (status: FlowResult["status"]): FlowResult => ({ state: st, status, out, actions, counters, steps, contact });
  const finish = (status: FlowResult["status"]) => {
    st.nodeId = null;
    st.tries = 0;
    delete st.waitUntil;
    return result(status);
  };
  /** leave the flow at node `n` for the queue with a note */
  const leave = (n: FlowNode | null, note: string, status: FlowResult["status"] = "left") => {
    if (n) counters.push({ nodeId: n.id, kind: "dropped" });
    actions.push({ type: "handover", note });
    return finish(status);
  };

  let cur: FlowNode | null = null;
  /** the node to run next, and whether it was just entered */
  if (input.kind === "start" || !state || st.nodeId === null) {
    cur = flow.nodes.find((n) => n.type === "start") ?? null;
    if (!cur) return leave(null, FLOW_NOTES.missing("start"), "failed");
    st.vars = state?.vars ?? {};
    st.tries = 0;
  } else {
    const waiting = nodes.get(st.nodeId);
    if (!waiting) return leave(null, FLOW_NOTES.missing(st.nodeId), "failed");
    if (input.kind === "message") {
      const word = matchHandoverKeyword(input.text, flow.exitWords);
      if (word) {
        steps.push({ nodeId: waiting.id, nodeType: waiting.type, in: input.text, out: [], vars: { ...st.vars }, contact, note: "exit" });
        return leave(waiting, FLOW_NOTES.exitWord(word));
      }
    }
    // the answer to the waiting node
    const answered = await answer(waiting, input);
    if (answered.kind === "stay") return result(answered.status);
    if (answered.kind === "result") return answered.result;
    cur = answered.node;
  }

  type Answer = { kind: "stay"; status: FlowResult["status"] } | { kind: "go"; node: FlowNode | null } | { kind: "result"; result: FlowResult };
  async function answer(n: FlowNode, inp: FlowInput): Promise<Answer> {
    const text = inp.kind === "message" ? inp.text : "";
    const go = (handle: string): Answer => {
      counters.push({ nodeId: n.id, kind: "exited" });
      record(n, { in: text, handle });
      st.tries = 0;
      delete st.waitUntil;
      const to = next(n, handle);
      if (!to) return { kind: "result", result: leave(null, FLOW_NOTES.dead(n.id)) };
      return { kind: "go", node: nodes.get(to) ?? null };
    };
    const retry = (invalidText: string, retries: number, resend: () => void): Answer => {
      st.tries += 1;
      if (st.tries > retries) {
        if (next(n, INVALID_HANDLE)) return go(INVALID_HANDLE);
        record(n, { in: text, handle: INVALID_HANDLE });
        return { kind: "result", result: leave(n, FLOW_NOTES.invalid(n.id)) };
      }
      if (invalidText) send({ kind: "text", body: render(invalidText) });
      resend();
      record(n, { in: text, note: "invalid" });
      return { kind: "stay", status: "waiting" };
    };
    if (inp.kind === "timer") {
      if (n.type !== "wait") return { kind: "stay", status: "waiting" };
      return go(DEFAULT_HANDLE);
    }
    if (n.type === "wait") return { kind: "stay", status: "waiting-timer" }; // a message while waiting is only stored
    if (n.type === "menu") {
      const opt = inp.kind === "message" ? matchMenuOption(n, text, inp.optionId) : null;
      if (opt) return go(opt);
      return retry(n.data.invalidText, n.data.retries, () => send(menuMessage(render(n.data.text), n, ctx.channel)));
    }
    if (n.type === "question") {
      const value = checkAnswer(n.data.validate, text);
      if (value !== null) {
        save(n.data.saveAs, value);
        return go(DEFAULT_HANDLE);
      }
      return retry(n.data.invalidText, n.data.retries, () => send({ kind: "text", body: render(n.data.text) }));
    }
    if (n.type === "ai") {
      const r = await aiTurn(n, text);
      return r;
    }
    return { kind: "go", node: n };
  }

  async function aiTurn(n: FlowNodeOf<"ai">, text: string): Promise<Answer> {
    let reply: FlowAiReply;
    try {
      reply = await deps.ai(n.data.promptId, text, st.vars);
    } catch (err) {
      record(n, { in: text, note: "error" });
      if (next(n, "handover")) return goFrom(n, "handover", text);
      return { kind: "result", result: leave(n, FLOW_NOTES.aiFailed(n.id, String((err as Error)?.message ?? err).slice(0, 200))) };
    }
    for (const m of reply.messages) send({ kind: "text", body: m });
    if (reply.outcome === "continue") {
      record(n, { in: text });
      st.nodeId = n.id;
      return { kind: "stay", status: "waiting" };
    }
    if (!next(n, reply.outcome)) {
      record(n, { in: text, handle: reply.outcome });
      return { kind: "result", result: leave(n, reply.outcome === "handover" ? FLOW_NOTES.aiHandover(n.id) : FLOW_NOTES.dead(n.id)) };
    }
    return goFrom(n, reply.outcome, text);
  }

  function goFrom(n: FlowNode, handle: string, text: string): Answer {
    counters.push({ nodeId: n.id, kind: "exited" });
    if (!steps.length || steps[steps.length - 1]!.nodeId !== n.id) record(n, { in: text, handle });
    const to = next(n, handle);
    return { kind: "go", node: to ? (nodes.get(to) ?? null) : null };
  }

  // walk until the flow waits or ends
  for (let i = 0; i < MAX_STEPS_PER_CALL; i++) {
    if (!cur) return leave(null, FLOW_NOTES.missing("?"), "failed");
    const n: FlowNode = cur;
    counters.push({ nodeId: n.id, kind: "entered" });
    const advance = (handle: string): FlowNode | null | "dead" => {
      counters.push({ nodeId: n.id, kind: "exited" });
      record(n, { handle });
      const to = next(n, handle);
      return to ? (nodes.get(to) ?? null) : "dead";
    };
    let to: FlowNode | null | "dead";
    switch (n.type) {
      case "start":
        to = advance(DEFAULT_HANDLE);
        break;
      case "message":
        send({ kind: "text", body: render(n.data.text) });
        to = advance(DEFAULT_HANDLE);
        break;
      case "media":
        for (const m of [await deps.media(n)].flat()) send({ ...m, ...(m.kind === "media" ? { caption: render(m.caption) } : {}) });
        to = advance(DEFAULT_HANDLE);
        break;
      case "tag":
        actions.push({ type: "addTag", tagId: n.data.tagId });
        to = advance(DEFAULT_HANDLE);
        break;
      case "menu":
        send(menuMessage(render(n.data.text), n, ctx.channel));
        record(n);
        st.nodeId = n.id;
        st.tries = 0;
        return result("waiting");
      case "question":
        send({ kind: "text", body: render(n.data.text) });
        record(n);
        st.nodeId = n.id;
        st.tries = 0;
        return result("waiting");
      case "ai": {
        st.nodeId = n.id;
        st.tries = 0;
        record(n);
        return result("waiting");
      }
      case "wait":
        record(n, { note: `wait ${n.data.seconds}s` });
        st.nodeId = n.id;
        st.waitUntil = new Date(deps.now().getTime() + n.data.seconds * 1000).toISOString();
        return result("waiting-timer");
      case "condition": {
        const ok = await evalCondition(n);
        to = advance(ok ? "true" : "false");
        break;
      }
      case "http": {
        const r = await callHttp(n);
        if (r.ok) to = advance("success");
        else if (next(n, "error")) {
          st.vars.httpError = r.why;
          to = advance("error");
        } else {
          record(n, { note: "error" });
          return leave(n, FLOW_NOTES.httpFailed(n.id, r.why));
        }
        break;
      }
      case "transfer": {
        if (n.data.text) send({ kind: "text", body: render(n.data.text) });
        actions.push({ type: "transfer", queueId: n.data.queueId ?? null, userId: n.data.userId ?? null });
        counters.push({ nodeId: n.id, kind: "exited" });
        record(n);
        return finish("transferred");
      }
      case "end": {
        if (n.data.text) send({ kind: "text", body: render(n.data.text) });
        if (n.data.closeTicket) actions.push({ type: "close" });
        counters.push({ nodeId: n.id, kind: "exited" });
        record(n);
        return finish("ended");
      }
    }
    if (to === "dead") return leave(null, FLOW_NOTES.dead(n.id));
    cur = to;
  }
  return leave(cur, FLOW_NOTES.missing("loop"), "failed");

  async function evalCondition(n: FlowNodeOf<"condition">): Promise<boolean> {
    const results: boolean[] = [];
    for (const r of n.data.rules) {
      const l = render(r.left ?? "").trim();
      const rt = render(r.right ?? "").trim();
      const num = (s: string) => Number(s.replace(",", "."));
      let v: boolean;
      switch (r.op) {
        case "eq":
          v = foldText(l) === foldText(rt);
          break;
        case "neq":
          v = foldText(l) !== foldText(rt);
          break;
        case "contains":
          v = foldText(l).includes(foldText(rt));
          break;
        case "gt":
          v = num(l) > num(rt);
          break;
        case "lt":
          v = num(l) < num(rt);
          break;
        case "empty":
          v = l === "";
          break;
        case "notEmpty":
          v = l !== "";
          break;
        case "inBusinessHours":
          v = await deps.inBusinessHours();
          break;
      }
      results.push(v);
      if (n.data.match === "any" && v) return true;
      if (n.data.match === "all" && !v) return false;
    }
    return n.data.match === "all" ? results.every(Boolean) : results.some(Boolean);
  }

  async function callHttp(n: FlowNodeOf<"http">): Promise<{ ok: true } | { ok: false; why: string }> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(n.data.headers)) headers[k] = render(v);
    let res: { status: number; json: unknown };
    try {
      res = await deps.http({ method: n.data.method, url: renderText(n.data.url, st.vars, contact, ctx.protocol, encodeURIComponent), headers, body: n.data.body ? render(n.data.body) : undefined, timeoutMs: n.data.timeoutMs });
    } catch (err) {
      // our own words only: never an outside body (the guard's and fetch's messages name no response content)
      return { ok: false, why: String((err as { code?: string }).code ?? (err as Error)?.name ?? "error").slice(0, 80) };
    }
    if (res.status < 200 || res.status >= 300) return { ok: false, why: `HTTP ${res.status}` };
    for (const [target, path] of Object.entries(n.data.saveAs)) save(target, asText(path === "$.status" ? res.status : readJsonPath(res.json, path)));
    return { ok: true };
  }
}
