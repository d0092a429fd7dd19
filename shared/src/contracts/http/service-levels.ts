import * as z from "zod";
import type { AgentStatus, DistributionMode } from "../../domain/service-levels/distribution";
import { flag, num, optionalId, orNone } from "../body-values";

/**
 * Agent status, pause reasons, capacity and per-queue distribution (issue 13 items 1-3, docs/adr/0032).
 * Routes: /agents (status, capacity, history), /pause-reasons, /distribution/queues/{queueId}.
 */
export const AGENT_STATUSES = ["online", "paused", "offline"] as const satisfies readonly AgentStatus[];
export const DISTRIBUTION_MODES = ["off", "roundRobin", "leastBusy"] as const satisfies readonly DistributionMode[];
export const MAX_CAPACITY = 100;

/** PUT /agents/me/status: a pause needs one of the company's reasons. */
export const agentStatusInputSchema = z.object({
  status: z.enum(AGENT_STATUSES),
  pauseReasonId: optionalId(),
});
export type AgentStatusInput = z.infer<typeof agentStatusInputSchema>;

/** PUT /agents/{userId}: the attendant's own capacity (null: the company's default). */
export const agentCapacityInputSchema = z.object({
  // none (the company's default): null, false or "" as spec clients send; 0 is a capacity, and refused
  capacity: orNone(num(z.number().int().min(1).max(MAX_CAPACITY))),
});

export const pauseReasonInputSchema = z.object({ name: z.string().trim().min(1).max(60) });
export type PauseReason = { id: number; name: string; createdAt: string };

/** GET/PUT /distribution/queues/{queueId} */
export const queueDistributionSchema = z.object({
  mode: z.enum(DISTRIBUTION_MODES),
  /** the customer's own attendant first ("carteirização") */
  ownAttendant: flag(),
  /** how long a returning customer waits for their own attendant before the queue's distribution takes over */
  ownAttendantMinutes: num(z.number().int().min(0).max(1440)),
});
export type QueueDistribution = z.infer<typeof queueDistributionSchema>;
export const DEFAULT_QUEUE_DISTRIBUTION: QueueDistribution = { mode: "off", ownAttendant: false, ownAttendantMinutes: 0 };

/** An attendant as the status panel sees them. */
export type AgentView = {
  userId: number;
  name: string;
  profile: string;
  queueIds: number[];
  status: AgentStatus;
  pauseReasonId: number | null;
  pauseReason: string | null;
  /** when the current status began (null: never set) */
  since: string | null;
  openTickets: number;
  /** the effective capacity (own, else the company's default) */
  capacity: number;
  ownCapacity: number | null;
  lastAssignedAt: string | null;
};

/** One status period of an attendant (GET /agents/{userId}/history). */
export type AgentStatusRecord = { userId: number; status: AgentStatus; pauseReasonId: number | null; pauseReason: string | null; at: string; by: number | null };

/** Realtime `user` channel (company-{id}-user), added beside the users' own events. */
export type AgentEventData = { action: "status"; agent: AgentView };
