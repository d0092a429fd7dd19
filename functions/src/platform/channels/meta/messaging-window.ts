/**
 * Meta's messaging window for Messenger and Instagram Direct (docs/adr/0090): a page may answer freely within 24 hours
 * of the customer's last message (`messaging_type: RESPONSE`); from then up to 7 days only a person may answer, with
 * `messaging_type: MESSAGE_TAG` and `tag: HUMAN_AGENT`; after that nothing may be sent until the customer writes
 * again (ERR_WINDOW_CLOSED). Without any customer message there is no window at all.
 */
export const FREE_WINDOW_MS = 24 * 3600_000;
export const HUMAN_AGENT_WINDOW_MS = 7 * 24 * 3600_000;

export type MessagingWindow =
  | { state: "open"; messagingType: "RESPONSE"; closesAt: string }
  | { state: "humanAgent"; messagingType: "MESSAGE_TAG"; tag: "HUMAN_AGENT"; closesAt: string }
  | { state: "closed"; error: "ERR_WINDOW_CLOSED" };

export const messagingWindow = (lastCustomerAt: string | Date | null | undefined, now: Date): MessagingWindow => {
  const last = lastCustomerAt ? new Date(lastCustomerAt).getTime() : Number.NaN;
  if (!Number.isFinite(last)) return { state: "closed", error: "ERR_WINDOW_CLOSED" };
  const age = now.getTime() - last;
  if (age < FREE_WINDOW_MS) return { state: "open", messagingType: "RESPONSE", closesAt: new Date(last + FREE_WINDOW_MS).toISOString() };
  if (age < HUMAN_AGENT_WINDOW_MS) return { state: "humanAgent", messagingType: "MESSAGE_TAG", tag: "HUMAN_AGENT", closesAt: new Date(last + HUMAN_AGENT_WINDOW_MS).toISOString() };
  return { state: "closed", error: "ERR_WINDOW_CLOSED" };
};

/** The Send API fields the window asks for, or null when the window is closed. */
export const sendTypeFields = (w: MessagingWindow): { messaging_type: string; tag?: string } | null =>
  w.state === "open" ? { messaging_type: "RESPONSE" } : w.state === "humanAgent" ? { messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" } : null;
