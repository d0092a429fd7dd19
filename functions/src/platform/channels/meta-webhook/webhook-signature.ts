import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Shared by every Meta channel (WhatsApp Cloud API, Messenger, Instagram; docs/adr/0090). Meta signs every webhook POST: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, keyed by the app
 * secret>`. The check runs over the raw bytes as received (never a re-serialised JSON), in constant time.
 */
export const signatureFor = (rawBody: string | Uint8Array, appSecret: string) => `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;

export const verifySignature = (rawBody: string | Uint8Array, header: string | null | undefined, appSecret: string): boolean => {
  if (!header || !appSecret) return false;
  const expected = Buffer.from(signatureFor(rawBody, appSecret));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/**
 * Meta's verification request when the callback URL is saved: GET ?hub.mode=subscribe&hub.verify_token=..&hub.challenge=..
 * Answers the challenge to echo (200), or null (403).
 */
export const verificationChallenge = (query: Record<string, string | undefined>, verifyToken: string): string | null => {
  const token = query["hub.verify_token"] ?? "";
  if (query["hub.mode"] !== "subscribe" || !verifyToken || token.length !== verifyToken.length) return null;
  if (!timingSafeEqual(Buffer.from(token), Buffer.from(verifyToken))) return null;
  return query["hub.challenge"] ?? "";
};
