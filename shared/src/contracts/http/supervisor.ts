import type { AgentStatus } from "../../domain/service-levels/distribution";

/** One queue on the supervisors' cockpit (issue 34, docs/adr/0101). */
export type SupervisorQueue = {
  id: number;
  name: string;
  /** tickets waiting in the queue (pending) */
  waiting: number;
  /** how long the oldest waiting ticket has waited (since it was queued); 0 when none waits */
  longestWaitSeconds: number;
  /** live tickets whose running SLA clock passed its warning (80 %) and is not yet due (ADR 0033) */
  slaAtRisk: number;
  /** live tickets whose running SLA clock fell due */
  slaBreached: number;
  /** tickets being handled in the queue (open) */
  openTickets: number;
};

/** One attendant on the cockpit. */
export type SupervisorAgent = {
  id: number;
  name: string;
  status: AgentStatus;
  statusSince: string | null;
  openTickets: number;
  capacity: number;
  /**
   * Seconds until the earliest reply the attendant owes (a running first- or next-response clock of one of their open
   * tickets): negative when it is already overdue; null when they owe none with a clock.
   */
  oldestReplyDueSeconds: number | null;
};

/** GET /supervisor/overview */
export type SupervisorOverview = { queues: SupervisorQueue[]; agents: SupervisorAgent[] };

/** A queue is at risk when a ticket's SLA is at risk or breached; an attendant is over capacity above it. */
export const queueAtRisk = (q: Pick<SupervisorQueue, "slaAtRisk" | "slaBreached">) => q.slaAtRisk > 0 || q.slaBreached > 0;
export const agentOverCapacity = (a: Pick<SupervisorAgent, "openTickets" | "capacity">) => a.openTickets > a.capacity;
