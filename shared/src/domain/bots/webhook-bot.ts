import * as z from "zod";

/**
 * The contract of n8n and webhook integrations (issue 11 item 5, docs/integrations.md): each customer message of a
 * ticket handled by the integration is POSTed as JSON to its `urlN8N`, signed with HMAC-SHA256 over the raw body
 * under the integration's own secret; the JSON answer may carry messages to send and actions.
 */

/** `sha256=<hex>` of HMAC-SHA256(secret, raw body) */
export const WEBHOOK_SIGNATURE_HEADER = "x-atende-signature";
/** the event name ("message") */
export const WEBHOOK_EVENT_HEADER = "x-atende-event";
/** one id per delivery (the same on the one retry after a transient failure), for de-duplication */
export const WEBHOOK_DELIVERY_HEADER = "x-atende-delivery";
/** the secret's shape: "whsec_" and 43 base64url characters (32 random bytes) */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** what a state round trip may weigh (bytes of JSON) */
export const WEBHOOK_STATE_MAX_BYTES = 4096;
/** at most this many messages and actions are taken from one answer */
export const WEBHOOK_MAX_MESSAGES = 10;
export const WEBHOOK_MAX_ACTIONS = 5;

/** The body we POST (version 1). */
export type WebhookPayload = {
  version: 1;
  event: "message";
  deliveryId: string;
  /** ISO time of sending: receivers may refuse old deliveries (replays) */
  sentAt: string;
  integration: { id: number; name: string; type: "n8n" | "webhook" };
  company: { id: number; name: string };
  connection: { id: number; name: string };
  queue: { id: number; name: string } | null;
  ticket: { id: number; uuid: string; queueId: number | null };
  contact: { id: number; name: string; number: string; email: string | null };
  message: { id: string; body: string; mediaType: string | null; mediaUrl: string | null; transcript: string | null; createdAt: string };
  /** what the receiver answered as `state` last time for this ticket (null on the first message) */
  state: Record<string, unknown> | null;
};

const text = z.string().trim().min(1).max(4096);
const url = z.string().trim().url().max(2000).refine((u) => /^https?:\/\//i.test(u), "http(s) only");

export const webhookAnswerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), body: text }),
  z.object({ type: z.enum(["image", "audio", "video", "document"]), url, caption: z.string().max(1024).optional(), filename: z.string().max(255).optional() }),
]);

export const webhookAnswerActionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("transferQueue"), queueId: z.number().int().positive() }),
  z.object({ type: z.literal("transferUser"), userId: z.number().int().positive() }),
  z.object({ type: z.literal("close") }),
  z.object({ type: z.literal("addTag"), tag: z.union([z.number().int().positive(), z.string().trim().min(1).max(100)]) }),
  z.object({ type: z.literal("handover"), reason: z.string().trim().max(500).optional(), note: z.string().trim().max(2000).optional() }),
]);

/**
 * The answer (a JSON object; an empty body or 204 means "nothing to do"). n8n's "Respond to Webhook" may answer a
 * one-item array: its first item is read. Unknown fields are ignored.
 */
export const webhookAnswerSchema = z.object({
  messages: z.array(webhookAnswerMessageSchema).max(WEBHOOK_MAX_MESSAGES).optional().default([]),
  actions: z.array(webhookAnswerActionSchema).max(WEBHOOK_MAX_ACTIONS).optional().default([]),
  /** kept on the ticket and sent back as `state` with the next message; null clears it */
  state: z.record(z.string(), z.unknown()).nullable().optional(),
  /** pause between the messages, 0 to 10 s */
  delayMs: z.number().int().min(0).max(10_000).optional(),
});
export type WebhookAnswer = z.infer<typeof webhookAnswerSchema>;
