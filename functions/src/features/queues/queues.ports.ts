import type { QueuesRepository } from "./queues.repository";

/** Narrow ports the queues feature publishes (its repository implements them; docs/adr/0024-feature-modules.md). */
export type QueuesOfCompany = Pick<QueuesRepository, "listByCompany">;
export type QueueCreation = Pick<QueuesRepository, "create">;
