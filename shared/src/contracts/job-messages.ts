import * as z from "zod";

/** What a push notification shows (the service worker's payload, docs/adr/0097). */
export const pushNotificationSchema = z.object({ title: z.string(), body: z.string(), url: z.string(), tag: z.string() });
export type PushNotification = z.infer<typeof pushNotificationSchema>;

const ticketRef = z.object({ id: z.number().int(), uuid: z.string(), queueId: z.number().int().nullable(), userId: z.number().int().nullable() });
/** The domain events that may send a push; the job decides who gets one (rules, preferences, quiet hours). */
export const pushEventSchema = z.discriminatedUnion("kind", [
  /** a ticket starts waiting (pending, no owner) in a queue, or queue-less */
  z.object({ kind: z.literal("waiting"), ticket: ticketRef, contactId: z.number().int() }),
  /** a customer message on an owned ticket (`preview`: the text, shown only when the company allows previews) */
  z.object({ kind: z.literal("message"), ticket: ticketRef, contactId: z.number().int(), preview: z.string() }),
  /** a ticket given to its new owner by someone else (or by distribution) */
  z.object({ kind: z.literal("transfer"), ticket: ticketRef, contactId: z.number().int() }),
  /** an internal chat message to the chat's other members */
  z.object({ kind: z.literal("chat"), chatUuid: z.string(), userIds: z.array(z.number().int()), from: z.string(), preview: z.string() }),
  /** an announcement published: every user of the company */
  z.object({ kind: z.literal("announcement"), id: z.number().int(), title: z.string() }),
  /** a supervisor's whisper to the ticket's attendant (issue 34, docs/adr/0102): the text only with previews on */
  z.object({ kind: z.literal("whisper"), ticket: ticketRef, from: z.string(), preview: z.string() }),
  /** another feature's own notification to some users (container.push.notifyUsers) */
  z.object({ kind: z.literal("direct"), userIds: z.array(z.number().int()), notification: pushNotificationSchema, urgency: z.enum(["normal", "high"]).default("normal") }),
]);
export type PushEvent = z.infer<typeof pushEventSchema>;

/**
 * Delayed work on the standard `jobs` queue (SQS delivers it after up to 15 minutes).
 * Work due later than that is indexed by due time and picked up by the minute tick instead.
 */
export const jobMessageSchema = z.discriminatedUnion("type", [
  /** mark a user offline if no ping arrived since `lastSeenAt` */
  z.object({ type: z.literal("user.offlineCheck"), companyId: z.number().int().positive(), userId: z.number().int().positive(), lastSeenAt: z.string() }),
  /**
   * Web Push (docs/adr/0097): an event that may notify users, decided and sent by the jobs consumer after the unit of
   * work that caused it committed (never in the inbound path)
   */
  z.object({ type: z.literal("push.notify"), companyId: z.number().int().positive(), event: pushEventSchema }),
  /** Web Push: one subscription's delivery again after the push service answered 429 or 5xx (backoff) */
  z.object({
    type: z.literal("push.deliver"),
    companyId: z.number().int().positive(),
    userId: z.number().int().positive(),
    endpoint: z.string(),
    notification: pushNotificationSchema,
    urgency: z.enum(["very-low", "low", "normal", "high"]),
    attempt: z.number().int().positive(),
  }),
  /** generic: a feature's own job, by name */
  z.object({ type: z.literal("feature"), companyId: z.number().int().positive(), name: z.string(), payload: z.record(z.string(), z.unknown()).default({}) }),
]);
export type JobMessage = z.infer<typeof jobMessageSchema>;
