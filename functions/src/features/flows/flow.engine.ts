import type { FlowOutMessage } from "@atende/shared/contracts/http/flows";
import type { Flow, FlowNodeOf } from "@atende/shared/domain/flows/flow";
import type { Logger } from "../../platform/logger";
import { companyOfMediaKey } from "../../platform/storage/media-store.port";
import { afterWork } from "../../platform/unit-of-work";
import type { BotAction, BotEngine, BotOutMessage, BotTurnInput, BotTurnResult } from "../bots/bot-engine.port";
import { runFlow, type FlowAiReply, type FlowChannel, type FlowDeps, type FlowInput, type FlowResult, type FlowState } from "./flow-engine";
import type { FlowsRepository, StoredFlowVersion } from "./flows.repository";

/**
 * Flows as a bot kind (issue 30, ADR 0083): the bot runner (ADR 0026) gives one turn per customer message, in order,
 * with the ticket's lease, the saved state, the handover with a note, the sends and the actions; this adapter loads
 * the flow's version (immutable, so cached in memory), runs the interpreter one call, counts the nodes, and answers.
 */
export type FlowBotConfig = { flowId: number; companyId: number; channel: FlowChannel };

/** What the flow keeps on the ticket (the bot item's state). */
type Saved = FlowState & { extra?: Record<string, string>; email?: string; name?: string };

/** A timer's turn comes as a message with this id prefix (the runner queues it like a customer message). */
import { BOT_TIMER_PREFIX as FLOW_TIMER_PREFIX } from "../bots/bot-runner.service";

export type FlowEngineDeps = {
  flows: Pick<FlowsRepository, "findById" | "findVersion" | "count">;
  http: FlowDeps["http"];
  inBusinessHours: (companyId: number) => () => Promise<boolean>;
  /** an `ai` node: the AI prompt's answer to the customer's text (the prompt engine); absent: the `done` exit */
  ai?: (companyId: number, promptId: number, input: BotTurnInput) => Promise<FlowAiReply>;
  clock: () => Date;
  /** where a count that could not be written is told */
  logger?: Pick<Logger, "warn">;
  /** a `media` node's file list: its options' stored files, in order (absent: only uploaded files are sent) */
  files?: (companyId: number, fileListId: number) => Promise<{ key: string; name: string }[]>;
};

const MAX_CACHED_VERSIONS = 500;

/**
 * `{{protocol}}`: the attention cycle's protocol number as the rest of the product shows it (issue 13, ADR 0033:
 * `YYYYMMDD` + the day's sequence, stored on the cycle); a ticket from before protocols falls back to its id.
 */
export const protocolOf = (ticket: { id: number; protocol?: string | null }) => ticket.protocol || String(ticket.id);

export const createFlowEngine = (deps: FlowEngineDeps): BotEngine<FlowBotConfig> & { versionOf(companyId: number, flowId: number, version: number): Promise<StoredFlowVersion | null> } => {
  const cache = new Map<string, StoredFlowVersion>();
  const versionOf = async (companyId: number, flowId: number, version: number) => {
    const k = `${companyId}:${flowId}:${version}`;
    const hit = cache.get(k);
    if (hit) return hit;
    const v = await deps.flows.findVersion(companyId, flowId, version);
    if (v) {
      if (cache.size >= MAX_CACHED_VERSIONS) cache.delete(cache.keys().next().value!);
      cache.set(k, v);
    }
    return v;
  };

  const toOut = (r: FlowResult): BotOutMessage[] =>
    r.out.map((m): BotOutMessage => {
      if (m.kind === "text") return { kind: "text", body: m.body };
      // a menu goes as Cloud API buttons or list where the channel has them, else as its numbered text
      if (m.kind === "buttons") return { kind: "menu", body: m.text, interactive: { kind: "buttons", text: m.body, buttons: m.buttons } };
      if (m.kind === "list") return { kind: "menu", body: m.text, interactive: { kind: "list", text: m.body, button: m.button, rows: m.rows } };
      // a file of our media store goes with its caption; one that could not be found leaves its caption as text
      return m.key ? { kind: "stored", key: m.key, filename: m.fileName, ...(m.caption ? { caption: m.caption } : {}) } : { kind: "text", body: m.caption };
    }).filter((m) => m.kind !== "text" || m.body !== "");

  /** A `media` node's files: the uploaded one (the company's own key only) or the file list's, the caption on the first. */
  const mediaOf = async (companyId: number, n: FlowNodeOf<"media">): Promise<FlowOutMessage[]> => {
    const caption = n.data.caption ?? "";
    const files: { key: string; name: string; mimetype?: string }[] = [];
    if (n.data.file && companyOfMediaKey(n.data.file.key) === companyId) files.push(n.data.file);
    if (n.data.fileListId !== undefined && deps.files) files.push(...(await deps.files(companyId, n.data.fileListId)));
    if (!files.length) return [{ kind: "media", caption, fileName: "", mimetype: "" }];
    return files.map((f, i) => ({ kind: "media", caption: i === 0 ? caption : "", fileName: f.name, mimetype: f.mimetype ?? "", key: f.key }));
  };

  const toActions = (r: FlowResult): BotAction[] => {
    const out: BotAction[] = [];
    for (const a of r.actions) {
      if (a.type === "addTag") out.push({ type: "addTag", tag: a.tagId });
      else if (a.type === "close") out.push({ type: "close" });
      else if (a.type === "transfer") {
        if (a.queueId) out.push({ type: "transferQueue", queueId: a.queueId });
        if (a.userId) out.push({ type: "transferUser", userId: a.userId });
      } else if (a.type === "handover") out.push({ type: "handover", reason: "", note: a.note });
      else if (a.type === "saveContact") out.push({ type: "saveContact", field: a.field, ...(a.key ? { key: a.key } : {}), value: a.value });
    }
    return out;
  };

  return {
    kind: "flow",
    versionOf,
    async turn(config, input): Promise<BotTurnResult> {
      const { companyId, flowId } = config;
      const saved = input.state as Saved | null;
      let version: number;
      let flowInput: FlowInput;
      if (saved && saved.flowId === flowId && saved.nodeId) {
        version = saved.version;
        flowInput = input.message.id.startsWith(FLOW_TIMER_PREFIX) ? { kind: "timer" } : { kind: "message", text: input.message.body, ...(input.message.replyId ? { optionId: input.message.replyId } : {}) };
      } else {
        if (input.message.id.startsWith(FLOW_TIMER_PREFIX)) return { messages: [], actions: [], state: input.state, quiet: true };
        const draft = await deps.flows.findById(companyId, flowId);
        if (!draft?.publishedVersion || draft.archivedAt) return { messages: [], actions: [{ type: "handover", reason: "", note: "O fluxo não está publicado." }], state: null };
        version = draft.publishedVersion;
        flowInput = { kind: "start", text: input.message.body };
      }
      const v = await versionOf(companyId, flowId, version);
      if (!v) return { messages: [], actions: [{ type: "handover", reason: "", note: `A versão ${version} do fluxo não existe.` }], state: null };
      const flow: Flow = v;
      const contact = { name: saved?.name ?? input.contact.name, number: input.contact.number, email: saved?.email ?? input.contact.email ?? "", extra: { ...(saved?.extra ?? {}) } };
      const r = await runFlow(
        { flow, flowId, version, channel: config.channel, contact, protocol: protocolOf(input.ticket) },
        flowInput.kind === "start" ? null : saved,
        flowInput,
        {
          http: deps.http,
          ai: deps.ai ? (promptId) => deps.ai!(companyId, promptId, input) : async () => ({ messages: [], outcome: "done" }),
          inBusinessHours: deps.inBusinessHours(companyId),
          media: (n) => mediaOf(companyId, n),
          now: deps.clock,
        },
      );
      const over = r.status !== "waiting" && r.status !== "waiting-timer";
      const dropped = r.counters.some((c) => c.kind === "dropped") || r.status === "left" || r.status === "failed";
      // the node counts go beside the turn's sends (started now, awaited when the unit of work ends): a count that
      // fails is logged, never a reason to send the step again
      const counted = deps.flows
        .count(companyId, flowId, version, r.counters, {
          started: flowInput.kind === "start" ? 1 : 0,
          finished: over && !dropped ? 1 : 0,
          dropped: over && dropped ? 1 : 0,
        })
        .catch((err) => deps.logger?.warn("flows: node counts not written", { companyId, flowId, version, err: String(err) }));
      await afterWork(() => counted);
      const state: Saved | null = over ? null : { ...r.state, extra: r.contact.extra, email: r.contact.email, name: r.contact.name };
      const messages = toOut(r);
      const actions = toActions(r);
      return {
        messages,
        actions,
        state: state as Record<string, unknown> | null,
        // a flow that waits without a word (a message during `wait`) is not a silent bot
        quiet: messages.length === 0 && actions.length === 0,
        ...(r.status === "waiting-timer" && r.state.waitUntil ? { wakeAt: new Date(r.state.waitUntil) } : {}),
        // transfer and end hand the ticket to people: the flow is over for this attention cycle
        ...(over ? { stop: r.status } : {}),
      };
    },
  };
};
