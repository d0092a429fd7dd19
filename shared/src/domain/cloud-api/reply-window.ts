/**
 * The WhatsApp Cloud API's customer service window: free-form messages (text, media, reactions) may be sent only
 * within 24 hours of the customer's last message to the number; after that only approved templates (Meta answers
 * error 131047 "Re-engagement message" otherwise). QR connections have no window (replyWindowHours null).
 */
export const CLOUD_API_REPLY_WINDOW_HOURS = 24;
/** the ticket header turns amber in the window's last hour */
export const REPLY_WINDOW_WARNING_MS = 60 * 60 * 1000;

export type ReplyWindow =
  /** no window on this channel (QR sessions) */
  | { kind: "none" }
  /** the customer never wrote (or we do not know when): only templates */
  | { kind: "closed"; closedAt: null }
  | { kind: "closed"; closedAt: string }
  | { kind: "open"; closesAt: string; remainingMs: number; closingSoon: boolean };

const toMs = (at: string | Date | number) => (at instanceof Date ? at.getTime() : typeof at === "number" ? at : Date.parse(at));

/**
 * The window of a conversation at `now`, from the time of the customer's last message. `hours` null: the channel
 * has no window. An unparseable or absent time counts as "never wrote": closed.
 */
export const replyWindow = (lastCustomerMessageAt: string | Date | number | null | undefined, now: Date, hours: number | null = CLOUD_API_REPLY_WINDOW_HOURS): ReplyWindow => {
  if (hours === null) return { kind: "none" };
  if (lastCustomerMessageAt === null || lastCustomerMessageAt === undefined) return { kind: "closed", closedAt: null };
  const last = toMs(lastCustomerMessageAt);
  if (!Number.isFinite(last)) return { kind: "closed", closedAt: null };
  const closes = last + hours * 3600_000;
  const remainingMs = closes - now.getTime();
  if (remainingMs <= 0) return { kind: "closed", closedAt: new Date(closes).toISOString() };
  return { kind: "open", closesAt: new Date(closes).toISOString(), remainingMs, closingSoon: remainingMs <= REPLY_WINDOW_WARNING_MS };
};

/** Whether free-form content (not a template) may be sent now. */
export const canSendFreeForm = (w: ReplyWindow) => w.kind === "none" || w.kind === "open";

/** "23:59:59"-style countdown for the ticket header (hours may exceed 24 only if `hours` does). */
export const formatRemaining = (ms: number) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
};
