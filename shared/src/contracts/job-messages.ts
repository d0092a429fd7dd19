import * as z from "zod";

/**
 * Delayed work on the standard `jobs` queue (SQS delivers it after up to 15 minutes).
 * Work due later than that is indexed by due time and picked up by the minute tick instead.
 */
export const jobMessageSchema = z.discriminatedUnion("type", [
  /** mark a user offline if no ping arrived since `lastSeenAt` */
  z.object({ type: z.literal("user.offlineCheck"), companyId: z.number().int().positive(), userId: z.number().int().positive(), lastSeenAt: z.string() }),
  /** generic: a feature's own job, by name */
  z.object({ type: z.literal("feature"), companyId: z.number().int().positive(), name: z.string(), payload: z.record(z.string(), z.unknown()).default({}) }),
]);
export type JobMessage = z.infer<typeof jobMessageSchema>;
