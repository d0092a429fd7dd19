import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { WEBHOOK_SECRET_PREFIX } from "@atende/shared/domain/bots/webhook-bot";

/** A new per-integration signing secret: "whsec_" + 32 random bytes in base64url. */
export const generateWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;

/** The signature header's value for a raw body: `sha256=` + hex HMAC-SHA256 under the secret. */
export const signWebhookBody = (secret: string, rawBody: string | Uint8Array) => `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;

/** Whether `header` is the signature of `rawBody` under `secret` (constant-time compare). */
export const verifyWebhookSignature = (secret: string, rawBody: string | Uint8Array, header: string | null | undefined) => {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(secret, rawBody));
  const got = Buffer.from(header.trim());
  return got.length === expected.length && timingSafeEqual(got, expected);
};
