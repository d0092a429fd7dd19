import * as z from "zod";
import { flag } from "../body-values";

/** Web Push (docs/adr/0097). GET /push/public-key answer: the VAPID public key, base64url. */
export type PushPublicKeyResponse = { publicKey: string };

/**
 * POST /push/subscriptions body: the browser's `PushSubscription.toJSON()`, plus the device's language (the texts of
 * its notifications). The keys are checked by the server (a P-256 point, 16 bytes of auth secret).
 */
export const pushSubscriptionInputSchema = z.object({
  endpoint: z.string().url().max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().max(256), auth: z.string().max(128) }),
  lang: z.enum(["pt", "en", "es"]).default("pt"),
});
export type PushSubscriptionInput = z.input<typeof pushSubscriptionInputSchema>;

/** DELETE /push/subscriptions body. */
export const pushUnsubscribeInputSchema = z.object({ endpoint: z.string().max(2048) });

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
/** GET/PUT /push/preferences: what the user wants pushed, and quiet hours (both set or neither; in the company's time zone). */
export const pushPreferencesSchema = z
  .object({
    waiting: flag(),
    message: flag(),
    transfer: flag(),
    chat: flag(),
    announcement: flag(),
    quietStart: hhmm.nullable(),
    quietEnd: hhmm.nullable(),
  })
  .refine((p) => (p.quietStart === null) === (p.quietEnd === null), { message: "quietStart and quietEnd go together", path: ["quietEnd"] });
export type PushPreferencesBody = z.infer<typeof pushPreferencesSchema>;
