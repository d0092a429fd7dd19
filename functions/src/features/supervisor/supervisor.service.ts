import type { SupervisorOverview } from "@atende/shared/contracts/http/supervisor";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { AgentStatus } from "@atende/shared/domain/service-levels/distribution";
import type { SupervisorBoard } from "./supervisor-board";

/** What the cockpit reads of other features (their services or repositories, handed over by the composition root). */
export type SupervisorReads = {
  queues: { listByCompany(companyId: number): Promise<{ id: number; name: string }[]> };
  users: { listByCompany(companyId: number): Promise<{ id: number; name: string }[]> };
  agents: { list(companyId: number): Promise<{ userId: number; status: AgentStatus; since: string | null; open: number; capacity: number | null }[]> };
  defaultCapacity(companyId: number): Promise<number>;
};

const secondsBetween = (fromIso: string, to: Date) => Math.floor((to.getTime() - Date.parse(fromIso)) / 1000);

/**
 * The supervisors' cockpit (issue 34, docs/adr/0101): every queue's waiting/open tickets, longest wait and SLA
 * figures, and every attendant's status, load and earliest reply due, from counters kept by the ticket writes —
 * never a list of tickets. One round trip: the queues, users, agent items and board items (Queries of small
 * partitions) and the default capacity, side by side.
 */
export const createSupervisorService = (deps: { board: Pick<SupervisorBoard, "read">; reads: SupervisorReads; clock: () => Date }) => ({
  async overview(auth: AuthContext): Promise<SupervisorOverview> {
    const companyId = auth.companyId;
    const [queues, users, agents, board, defCap] = await Promise.all([
      deps.reads.queues.listByCompany(companyId),
      deps.reads.users.listByCompany(companyId),
      deps.reads.agents.list(companyId),
      deps.board.read(companyId),
      deps.reads.defaultCapacity(companyId),
    ]);
    const now = deps.clock();
    const byUser = new Map(agents.map((a) => [a.userId, a]));
    return {
      queues: queues
        .map((q) => {
          const b = board.queues.get(q.id);
          const oldest = b?.wait.length ? b.wait.reduce((a, x) => (x < a ? x : a)) : null;
          return {
            id: q.id,
            name: q.name,
            waiting: b?.wait.length ?? 0,
            longestWaitSeconds: oldest ? Math.max(0, secondsBetween(oldest.split("#")[0]!, now)) : 0,
            slaAtRisk: b?.risk ?? 0,
            slaBreached: b?.late ?? 0,
            openTickets: Math.max(0, b?.open ?? 0),
          };
        })
        .sort((a, b) => a.name.localeCompare(b.name)),
      agents: users
        .map((u) => {
          const a = byUser.get(u.id);
          const due = board.agents.get(u.id)?.due ?? [];
          const first = due.length ? due.reduce((x, y) => (y < x ? y : x)) : null;
          return {
            id: u.id,
            name: u.name,
            status: a?.status ?? "offline",
            statusSince: a?.since ?? null,
            openTickets: Math.max(0, a?.open ?? 0),
            capacity: a?.capacity ?? defCap,
            oldestReplyDueSeconds: first ? -secondsBetween(first.split("#")[0]!, now) : null,
          };
        })
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  },
});
export type SupervisorService = ReturnType<typeof createSupervisorService>;
