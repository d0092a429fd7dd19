import type { AgentsRepository } from "./agents.repository";

/**
 * What other features may do with the agents' items (docs/adr/0032): narrow ports the presence feature publishes
 * (its repository implements them; the composition root passes it).
 */
export type { AgentRecord } from "./agents.repository";
/** distribution: read the attendants' status and slots, reconcile a counter with the tickets actually open */
export type AgentSlotReads = Pick<AgentsRepository, "get" | "list" | "reconcile">;
