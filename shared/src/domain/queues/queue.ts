import type { QueueResponse } from "../../contracts/http/queues";

/** A queue as stored: the view type (GET /queue) and its timestamps. */
export type Queue = QueueResponse & { createdAt: string; updatedAt: string };
export type NewQueue = Omit<Queue, "id" | "companyId" | "createdAt" | "updatedAt">;
