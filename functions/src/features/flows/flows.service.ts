import type { FlowListResponse, FlowResponse, FlowStatsResponse, FlowTestRequest, FlowTestResponse, FlowVersionResponse } from "@atende/shared/contracts/http/flows";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { type Flow } from "@atende/shared/domain/flows/flow";
import { validateFlow } from "@atende/shared/domain/flows/flow-validate";
import { AppError } from "../../platform/errors";
import { runFlow, type FlowDeps, type FlowInput, type FlowResult, type FlowState } from "./flow-engine";
import { versionSummaryLimit, type FlowsRepository, type StoredFlow } from "./flows.repository";

/** Who points at a flow (connections and queues with `flowId`). */
export type FlowUsers = (companyId: number, flowId: number) => Promise<{ whatsappIds: number[]; queueIds: number[] }>;

/** The outside calls a test run makes (the http node for real through the outbound guard; the rest simulated). */
export type FlowTestDeps = Pick<FlowDeps, "http" | "inBusinessHours">;

const toResponse = (f: StoredFlow): FlowResponse => ({
  id: f.id,
  companyId: f.companyId,
  name: f.name,
  description: f.description,
  triggers: f.triggers,
  exitWords: f.exitWords,
  nodes: f.nodes,
  edges: f.edges,
  publishedVersion: f.publishedVersion,
  versions: f.versions,
  warnings: validateFlow(f).warnings,
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
});

/** Refuses a graph that cannot run: ERR_FLOW_INVALID with every node at fault. */
export const assertRunnable = (flow: Pick<Flow, "nodes" | "edges">) => {
  const v = validateFlow(flow);
  if (!v.ok) throw new AppError("ERR_FLOW_INVALID", { errors: v.errors, warnings: v.warnings });
  return v;
};

/** Flows (issue 30): admins only, the plan's integrations flag (both checked by the routes). */
export const createFlowsService = (deps: {
  flows: FlowsRepository;
  users: FlowUsers;
  clock: () => Date;
  test: (companyId: number) => FlowTestDeps;
  /** told after a version is stored (the bindings' "has a published flow" memory, flow-binding.ts createFlowsInUse) */
  onPublished?: (companyId: number) => void;
}) => {
  const { flows, clock } = deps;
  const load = async (companyId: number, id: number) => {
    const f = await flows.findById(companyId, id);
    if (!f || f.archivedAt) throw new AppError("ERR_NO_FLOW_FOUND");
    return f;
  };
  return {
    async list(auth: AuthContext): Promise<FlowListResponse> {
      const all = await flows.listByCompany(auth.companyId);
      return {
        flows: all
          .filter((f) => !f.archivedAt)
          .map((f) => ({ id: f.id, name: f.name, description: f.description, triggers: f.triggers, publishedVersion: f.publishedVersion, nodeCount: f.nodeCount, createdAt: f.createdAt, updatedAt: f.updatedAt })),
      };
    },
    get: async (auth: AuthContext, id: number) => toResponse(await load(auth.companyId, id)),
    async create(auth: AuthContext, input: Flow): Promise<FlowResponse> {
      assertRunnable(input);
      return toResponse(await flows.create({ ...input, companyId: auth.companyId }, clock()));
    },
    async update(auth: AuthContext, id: number, input: Flow): Promise<FlowResponse> {
      assertRunnable(input);
      const before = await load(auth.companyId, id);
      const after: StoredFlow = { ...before, ...input, updatedAt: clock().toISOString() };
      await flows.replace(after, before.updatedAt);
      return toResponse(after);
    },
    /** Refused while a connection or queue points at it; archived (hidden, versions kept) while conversations run on it. */
    async remove(auth: AuthContext, id: number): Promise<{ archived: boolean }> {
      const f = await load(auth.companyId, id);
      const used = await deps.users(auth.companyId, id);
      const stats = f.publishedVersion ? await flows.stats(auth.companyId, id) : [];
      const running = stats.reduce((n, s) => n + (s.totals.started ?? 0) - (s.totals.finished ?? 0) - (s.totals.dropped ?? 0), 0);
      if (used.whatsappIds.length || used.queueIds.length) throw new AppError("ERR_FLOW_IN_USE", { ...used, runningConversations: Math.max(0, running) });
      await flows.setTriggers(auth.companyId, id, []);
      if (running > 0) {
        const now = clock().toISOString();
        await flows.replace({ ...f, archivedAt: now, updatedAt: now }, f.updatedAt);
        return { archived: true };
      }
      await flows.remove(auth.companyId, id);
      return { archived: false };
    },
    /** A new immutable version from the draft; the keyword triggers follow the newest version. */
    async publish(auth: AuthContext, id: number): Promise<FlowResponse> {
      const f = await load(auth.companyId, id);
      assertRunnable(f);
      const version = (f.publishedVersion ?? 0) + 1;
      const now = clock().toISOString();
      await flows.putVersion({
        flowId: id,
        companyId: auth.companyId,
        version,
        publishedAt: now,
        publishedBy: auth.user.id ?? null,
        name: f.name,
        description: f.description,
        triggers: f.triggers,
        exitWords: f.exitWords,
        nodes: f.nodes,
        edges: f.edges,
      });
      deps.onPublished?.(auth.companyId);
      const after: StoredFlow = {
        ...f,
        publishedVersion: version,
        versions: [{ version, publishedAt: now, publishedBy: auth.user.id ?? null, nodeCount: f.nodes.length }, ...f.versions].slice(0, versionSummaryLimit),
        updatedAt: now,
      };
      await flows.replace(after, f.updatedAt);
      await flows.setTriggers(auth.companyId, id, f.triggers);
      return toResponse(after);
    },
    async version(auth: AuthContext, id: number, version: number): Promise<FlowVersionResponse> {
      await load(auth.companyId, id);
      const v = await flows.findVersion(auth.companyId, id, version);
      if (!v) throw new AppError("ERR_NOT_FOUND");
      const { companyId: _c, ...rest } = v;
      return rest;
    },
    async stats(auth: AuthContext, id: number): Promise<FlowStatsResponse> {
      await load(auth.companyId, id);
      const per = await flows.stats(auth.companyId, id);
      const nodes: FlowStatsResponse["nodes"] = {};
      const versions: FlowStatsResponse["versions"] = {};
      let started = 0;
      let finished = 0;
      let dropped = 0;
      for (const v of per) {
        versions[String(v.version)] = { nodes: v.nodes };
        for (const [nodeId, c] of Object.entries(v.nodes)) {
          const sum = (nodes[nodeId] ??= { entered: 0, exited: 0, dropped: 0 });
          sum.entered += c.entered;
          sum.exited += c.exited;
          sum.dropped += c.dropped;
        }
        started += v.totals.started ?? 0;
        finished += v.totals.finished ?? 0;
        dropped += v.totals.dropped ?? 0;
      }
      return { flowId: id, nodes, versions, started, finished, dropped };
    },
    /** The engine itself with an in-memory channel: no WhatsApp, no ticket, no counters. */
    async test(auth: AuthContext, id: number, req: FlowTestRequest & { messages: string[]; channel: "qr" | "cloudapi" }): Promise<FlowTestResponse> {
      const stored = await load(auth.companyId, id);
      const flow: Flow = req.flow ? (req.flow as Flow) : stored;
      assertRunnable(flow);
      const outside = deps.test(auth.companyId);
      const run: FlowDeps = {
        ...outside,
        ai: async () => ({ messages: [], outcome: "done" }),
        media: async (n) => ({ kind: "media", caption: n.data.caption ?? "", fileName: n.data.file?.name ?? `file-list-${n.data.fileListId ?? ""}`, mimetype: n.data.file?.mimetype ?? "" }),
        now: clock,
      };
      const ctx = {
        flow,
        flowId: id,
        version: 0,
        channel: req.channel,
        contact: { name: req.contact?.name ?? "Cliente", number: req.contact?.number ?? "5500000000000", email: req.contact?.email ?? "", extra: req.contact?.extra ?? {} },
        protocol: `TESTE-${id}`,
      };
      let state: FlowState = { flowId: id, version: 0, nodeId: null, vars: { ...(req.vars ?? {}) }, tries: 0 };
      const steps: FlowTestResponse["steps"] = [];
      const inputs: FlowInput[] = [{ kind: "start" }, ...req.messages.map((text): FlowInput => ({ kind: "message", text, optionId: text }))];
      let last: FlowResult | null = null;
      for (const [i, input] of inputs.entries()) {
        if (last && last.status !== "waiting" && last.status !== "waiting-timer") break;
        // a waiting timer goes on at once in a test
        if (last?.status === "waiting-timer") {
          last = await runFlow({ ...ctx, contact: last.contact }, state, { kind: "timer" }, run);
          steps.push(...last.steps);
          state = last.state;
          if (last.status !== "waiting") break;
        }
        last = await runFlow(last ? { ...ctx, contact: last.contact } : ctx, i === 0 ? state : state, input, run);
        const inText = input.kind === "message" ? input.text : undefined;
        steps.push(...last.steps.map((s, j) => (j === 0 && inText !== undefined ? { ...s, in: inText } : s)));
        state = last.state;
      }
      const transfer = last?.actions.find((a) => a.type === "transfer");
      return {
        steps,
        status: last?.status ?? "failed",
        nodeId: state.nodeId,
        ...(transfer && transfer.type === "transfer" ? { transfer: { queueId: transfer.queueId, userId: transfer.userId } } : {}),
        vars: state.vars,
      };
    },
  };
};
export type FlowsService = ReturnType<typeof createFlowsService>;
