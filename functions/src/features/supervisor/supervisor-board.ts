import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { CycleSla, SlaClockRecord } from "@atende/shared/contracts/http/tickets";
import { isRunning } from "@atende/shared/domain/service-levels/sla";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import type { Db } from "../../platform/db/client";
import { companyPk, pad } from "../../platform/db/keys";
import type { TxItem } from "../../platform/db/transact";

/**
 * The supervisors' board (issue 34, docs/adr/0101): one small item per queue and per attendant, kept by every ticket
 * write in the ticket's own transaction (like the list counters and the slot counters), so the cockpit reads the
 * company's figures in one Query instead of listing tickets.
 *
 * - `CO#c#SUP` / `Q#<queue>`: `wait` — the string set of the queue's waiting tickets as `<queuedAt>#<ticket>` (its
 *   size is the number waiting, its smallest element the longest wait); `open` — open tickets in the queue;
 *   `risk` / `late` — string sets of the live tickets with a running SLA clock past its 80 % warning / past its due
 *   time (stamped by the SLA timers' writes, ADR 0033).
 * - `CO#c#SUP` / `A#<user>`: `due` — the string set `<dueAt>#<ticket>` of the attendant's open tickets whose
 *   response clock (first or next response) runs: the earliest is the oldest reply due.
 *
 * A ticket without a queue (still in the menu) is on no queue item. String sets need no item to exist first
 * (ADD / DELETE create and empty them), so a write touches only the items whose membership changed.
 */
export const boardPk = (companyId: number) => `${companyPk(companyId)}#SUP`;
export const queueSk = (queueId: number) => `Q#${pad(queueId)}`;
export const agentSk = (userId: number) => `A#${pad(userId)}`;

/** What the board reads of a ticket. */
export type BoardTicket = {
  id: number;
  companyId: number;
  status: TicketStatus;
  queueId: number | null;
  userId: number | null;
  cycle: { queuedAt: string; sla?: CycleSla | null };
};

type QueueMarks = { wait?: string; open?: true; risk?: string; late?: string };
type AgentMarks = { due?: string };

const clocks = (sla: CycleSla | null | undefined): SlaClockRecord[] => (sla ? [sla.firstResponse, sla.nextResponse, sla.resolution].filter((c): c is SlaClockRecord => !!c) : []);

/** Where a ticket stands on the board (pure): its marks on its queue's item and on its owner's item. */
export const boardMarks = (t: BoardTicket | null): { queue: [number, QueueMarks] | null; agent: [number, AgentMarks] | null } => {
  if (!t || t.status === "closed") return { queue: null, agent: null };
  const running = clocks(t.cycle.sla).filter((c) => isRunning(c, t.status));
  const queue: QueueMarks = {};
  if (t.status === "pending") queue.wait = `${t.cycle.queuedAt}#${pad(t.id)}`;
  if (t.status === "open") queue.open = true;
  if (running.some((c) => c.breachedAt)) queue.late = String(t.id);
  else if (running.some((c) => c.warnedAt)) queue.risk = String(t.id);
  const replies = t.cycle.sla ? [t.cycle.sla.firstResponse, t.cycle.sla.nextResponse] : [];
  const due = replies
    .filter((c): c is SlaClockRecord => isRunning(c, t.status) && !!c.dueAt)
    .map((c) => c.dueAt!)
    .sort()[0];
  return {
    queue: t.queueId !== null ? [t.queueId, queue] : null,
    agent: t.status === "open" && t.userId !== null && due ? [t.userId, { due: `${due}#${pad(t.id)}` }] : null,
  };
};

type Move = { add: Record<string, string>; del: Record<string, string>; open: number };
const diff = (from: Record<string, string | true | undefined>, to: Record<string, string | true | undefined>, sets: string[]): Move => {
  const m: Move = { add: {}, del: {}, open: 0 };
  for (const s of sets) {
    const a = from[s];
    const b = to[s];
    if (a === b) continue;
    // one attribute is either added to or deleted from in one expression: a waiting ticket whose element changed
    // within the same queue (never in practice: queuedAt is set when the cycle starts) keeps its first element
    if (typeof a === "string" && typeof b === "string") continue;
    if (typeof a === "string") m.del[s] = a;
    if (typeof b === "string") m.add[s] = b;
  }
  m.open = (to.open ? 1 : 0) - (from.open ? 1 : 0);
  return m;
};

const updateItem = (table: string, companyId: number, sk: string, move: Move, entity: string): TxItem | null => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds: string[] = [];
  const dels: string[] = [];
  for (const [s, v] of Object.entries(move.add)) {
    names[`#${s}`] = s;
    values[`:a${s}`] = new Set([v]);
    adds.push(`#${s} :a${s}`);
  }
  for (const [s, v] of Object.entries(move.del)) {
    names[`#${s}`] = s;
    values[`:d${s}`] = new Set([v]);
    dels.push(`#${s} :d${s}`);
  }
  if (move.open) {
    names["#open"] = "open";
    values[":open"] = move.open;
    adds.push("#open :open");
  }
  if (!adds.length && !dels.length) return null;
  names["#e"] = "entity";
  values[":e"] = entity;
  const expr = ["SET #e = :e", adds.length ? `ADD ${adds.join(", ")}` : "", dels.length ? `DELETE ${dels.join(", ")}` : ""].filter(Boolean).join(" ");
  return { Update: { TableName: table, Key: { pk: boardPk(companyId), sk }, UpdateExpression: expr, ExpressionAttributeNames: names, ExpressionAttributeValues: values } };
};

/** The board's updates of a ticket moving from `before` to `after` (null: created / deleted), for its own transaction. */
export const boardItems = (table: string, before: BoardTicket | null, after: BoardTicket | null): TxItem[] => {
  const t = after ?? before;
  if (!t) return [];
  const from = boardMarks(before);
  const to = boardMarks(after);
  const items: (TxItem | null)[] = [];
  const queues = new Set([from.queue?.[0], to.queue?.[0]].filter((q): q is number => q !== undefined));
  for (const q of queues) {
    const a = from.queue?.[0] === q ? from.queue[1] : {};
    const b = to.queue?.[0] === q ? to.queue[1] : {};
    items.push(updateItem(table, t.companyId, queueSk(q), diff(a, b, ["wait", "risk", "late"]), "supervisorQueue"));
  }
  const agents = new Set([from.agent?.[0], to.agent?.[0]].filter((u): u is number => u !== undefined));
  for (const u of agents) {
    const a = from.agent?.[0] === u ? from.agent[1] : {};
    const b = to.agent?.[0] === u ? to.agent[1] : {};
    items.push(updateItem(table, t.companyId, agentSk(u), diff(a, b, ["due"]), "supervisorAgent"));
  }
  return items.filter((i): i is TxItem => i !== null);
};

export type QueueBoard = { queueId: number; wait: string[]; open: number; risk: number; late: number };
export type AgentBoard = { userId: number; due: string[] };

const list = (v: unknown): string[] => (v instanceof Set ? [...(v as Set<string>)] : Array.isArray(v) ? (v as string[]) : []);

export const createSupervisorBoard = (db: Db) => ({
  /** the ticket writer's port (inbox-ports TicketBoard) */
  items: (before: BoardTicket | null, after: BoardTicket | null) => boardItems(db.tableName, before, after),
  /** Every queue's and attendant's item of a company: one Query (a few KB per queue). */
  async read(companyId: number): Promise<{ queues: Map<number, QueueBoard>; agents: Map<number, AgentBoard> }> {
    const queues = new Map<number, QueueBoard>();
    const agents = new Map<number, AgentBoard>();
    let start: Record<string, unknown> | undefined;
    do {
      const out = await db.doc.send(
        new QueryCommand({ TableName: db.tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": boardPk(companyId) }, ExclusiveStartKey: start }),
      );
      for (const i of out.Items ?? []) {
        const sk = String(i.sk);
        const id = Number(sk.slice(2));
        if (sk.startsWith("Q#")) queues.set(id, { queueId: id, wait: list(i.wait), open: Number(i.open ?? 0), risk: list(i.risk).length, late: list(i.late).length });
        else if (sk.startsWith("A#")) agents.set(id, { userId: id, due: list(i.due) });
      }
      start = out.LastEvaluatedKey;
    } while (start);
    return { queues, agents };
  },
});
export type SupervisorBoard = ReturnType<typeof createSupervisorBoard>;
