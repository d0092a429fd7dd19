/**
 * Who gets a pending ticket (issue 13, automatic distribution per queue). Pure: the caller reads the queue's
 * attendants with their status and load, and makes the choice stick with a conditional write (a slot is taken
 * only if the attendant is still under capacity), retrying with the next choice when the write loses.
 */
export type DistributionMode = "off" | "roundRobin" | "leastBusy";
export type AgentStatus = "online" | "paused" | "offline";

export type AgentSlot = {
  userId: number;
  status: AgentStatus;
  /** max open tickets (the user's own, else the company's default) */
  capacity: number;
  openTickets: number;
  /** when the attendant last received a ticket (ISO); null: never */
  lastAssignedAt: string | null;
  queueIds: readonly number[];
};

/** Online, not paused, in the queue, under capacity. */
export const canTake = (agent: AgentSlot, queueId: number) =>
  agent.status === "online" && agent.queueIds.includes(queueId) && agent.openTickets < agent.capacity;

const waitedLonger = (a: AgentSlot, b: AgentSlot) => {
  if (a.lastAssignedAt === b.lastAssignedAt) return a.userId - b.userId;
  if (a.lastAssignedAt === null) return -1;
  if (b.lastAssignedAt === null) return 1;
  return a.lastAssignedAt < b.lastAssignedAt ? -1 : 1;
};

/**
 * The attendants to try, best first (empty: the ticket waits). Round robin: whoever waited longest since their
 * last assignment. Least busy: fewest open tickets, ties to whoever waited longest. `preferUserId` (the
 * customer's own attendant) goes first when free.
 */
export const rankAgents = (mode: DistributionMode, queueId: number, agents: readonly AgentSlot[], preferUserId?: number | null): AgentSlot[] => {
  if (mode === "off") return [];
  const free = agents.filter((a) => canTake(a, queueId));
  const ranked = [...free].sort(mode === "leastBusy" ? (a, b) => a.openTickets - b.openTickets || waitedLonger(a, b) : waitedLonger);
  const preferred = preferUserId == null ? undefined : ranked.find((a) => a.userId === preferUserId);
  return preferred ? [preferred, ...ranked.filter((a) => a !== preferred)] : ranked;
};
