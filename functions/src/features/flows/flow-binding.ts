import { foldText } from "@atende/shared/domain/bots/handover-keywords";
import type { BotBinding, BotTicket, KnownBotItem } from "../bots/bot-inbox.port";
import type { FlowBotConfig } from "./flow.engine";
import type { FlowsRepository } from "./flows.repository";

type Binds = { flowId?: number | null } | null;

/**
 * Which flow answers a ticket (issue 30, ADR 0083), before the other bots: a flow already running on the ticket (it
 * finishes on its version), else the connection's flow, else the queue's, else a flow a keyword started (named in the
 * ticket's bot item). The connection's comes first, as the issue says.
 */
export const createFlowBinding = (deps: {
  /** whether the company has any published flow (flowsInUse below): without one, no ticket of it can be in a flow */
  any?: (companyId: number) => Promise<boolean>;
  connection: (companyId: number, id: number) => Promise<Binds>;
  queue: (companyId: number, id: number) => Promise<Binds>;
  item: (companyId: number, ticketId: number) => Promise<KnownBotItem | null>;
}) => {
  const bind = (ticket: BotTicket, flowId: number): BotBinding => ({
    kind: "flow",
    id: flowId,
    // menus go out as Cloud API buttons/lists carrying their numbered text, which QR sessions send (ADR 0083)
    config: { flowId, companyId: ticket.companyId, channel: "cloudapi" } satisfies FlowBotConfig,
    // an `ai` node's prompt sees the latest messages, read only by that node (and a handover's note)
    historyLimit: 10,
    historyOnDemand: true,
  });
  return async (ticket: BotTicket, known?: { item?: KnownBotItem }): Promise<BotBinding | null> => {
    // a company without flows (most of them) pays no read per customer message for this question
    if (deps.any && !(await deps.any(ticket.companyId))) return null;
    // the runner holds the item (its lease's answer); the intake reads it
    const item = known?.item ?? (await deps.item(ticket.companyId, ticket.id));
    if (item?.bot?.kind === "flow" && item.state && !item.stoppedAt) return bind(ticket, item.bot.id);
    const wa = ticket.whatsappId ? await deps.connection(ticket.companyId, ticket.whatsappId) : null;
    if (wa?.flowId) return bind(ticket, wa.flowId);
    const q = ticket.queueId ? await deps.queue(ticket.companyId, ticket.queueId) : null;
    if (q?.flowId) return bind(ticket, q.flowId);
    if (item?.bot?.kind === "flow" && !item.stoppedAt) return bind(ticket, item.bot.id);
    return null;
  };
};

/**
 * The inbox's question on a new conversation's first message (automation): does a flow take it? The connection's or
 * the queue's flow, or a published flow whose keyword is the whole message (accents and case ignored), which is then
 * named in the ticket's bot item. Answering true makes automation stand aside (no greeting, no queue menu).
 */
export const createFlowStart =
  (deps: { flows: Pick<FlowsRepository, "triggers">; queue: (companyId: number, id: number) => Promise<Binds>; startBot: (companyId: number, ticketId: number, bot: { kind: "flow"; id: number }, now: Date) => Promise<void>; clock: () => Date }) =>
  async (t: { id: number; companyId: number; queueId: number | null }, wa: { flowId?: number | null }, body: string): Promise<boolean> => {
    if (wa.flowId) return true;
    const queueFlow = t.queueId ? (await deps.queue(t.companyId, t.queueId))?.flowId : null;
    if (queueFlow) {
      // named in the ticket's bot item: the message's turn is resolved on the ticket as it was before it entered the queue
      await deps.startBot(t.companyId, t.id, { kind: "flow", id: queueFlow }, deps.clock());
      return true;
    }
    const word = foldText(body);
    if (!word) return false;
    const flowId = (await deps.flows.triggers(t.companyId))[word];
    if (!flowId) return false;
    await deps.startBot(t.companyId, t.id, { kind: "flow", id: flowId }, deps.clock());
    return true;
  };

/**
 * Whether a company has a published flow, remembered per instance: "yes" for good (published versions are immutable
 * and a deleted flow that conversations still run on is archived, not removed), "no" for a minute, forgotten at once
 * when this instance publishes one or starts one on a conversation (`published`). Known limit: another warm instance
 * may keep its "no" for up to `noTtlMs` after a company's FIRST publish, so a flow's first conversations there wait
 * for people (ADR 0083). It saves every other company two reads per customer message (docs/scale.md).
 */
export const createFlowsInUse = (deps: { list: (companyId: number) => Promise<{ publishedVersion: number | null }[]>; clock: () => Date; noTtlMs?: number }) => {
  const yes = new Set<number>();
  const no = new Map<number, number>();
  const ttl = deps.noTtlMs ?? 60_000;
  return {
    async any(companyId: number): Promise<boolean> {
      if (yes.has(companyId)) return true;
      const at = no.get(companyId);
      if (at !== undefined && deps.clock().getTime() - at < ttl) return false;
      const published = (await deps.list(companyId)).some((f) => f.publishedVersion !== null);
      if (published) yes.add(companyId);
      else no.set(companyId, deps.clock().getTime());
      return published;
    },
    published(companyId: number) {
      no.delete(companyId);
    },
  };
};
