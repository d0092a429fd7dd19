import { createHash, randomBytes } from "node:crypto";

/** A WhatsApp-style message id we choose before sending, so the echo is recognised by id. */
export const newMessageId = () => `3EB0${randomBytes(10).toString("hex").toUpperCase()}`;
/**
 * The same idempotency key from the same user always maps to the same id: a retry finds the stored message.
 * Outside the inbox (campaigns, schedules) this is how a repeat send stores nothing and sends nothing.
 */
export const idempotentMessageId = (companyId: number, userId: number, key: string) =>
  `3EB0${createHash("sha256").update(`${companyId}:${userId}:${key}`).digest("hex").slice(0, 20).toUpperCase()}`;
