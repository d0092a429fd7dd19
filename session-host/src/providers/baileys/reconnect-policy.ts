/**
 * What to do when a Baileys socket closes, by the close's status code (ADR 0014 has the table and the why).
 * - reconnect: transient (network, WhatsApp restarting a stream, service unavailable): again with backoff,
 *   at once after a restart request (515, normal right after pairing).
 * - refreshVersion: the WhatsApp Web version was refused (405): fetch the current one and reconnect, a few
 *   times; then stop.
 * - stop: reconnecting cannot help or is harmful (403 banned/forbidden, 440 replaced by another client):
 *   the connection shows DISCONNECTED with the reason and waits for a user's start; the auth is kept.
 * - logout: the device is unlinked (401, 411): the auth is cleared and the connection shows DISCONNECTED
 *   (logged out) with the reason; 401 then offers a new QR at once.
 * - a bad session (500) never clears the auth, however often it repeats: WhatsApp answers 500 for its own
 *   trouble as well, and a cleared session costs the customer a new QR. It reconnects with backoff and, from
 *   the third in a row, `alert` is set (an error log, a metric and DISCONNECTED with the reason on screen).
 */
export const DISCONNECT = {
  loggedOut: 401,
  forbidden: 403,
  methodNotAllowed: 405,
  timedOut: 408,
  multideviceMismatch: 411,
  connectionClosed: 428,
  connectionReplaced: 440,
  badSession: 500,
  unavailableService: 503,
  restartRequired: 515,
} as const;

export type CloseReason = keyof typeof DISCONNECT | "unknown";

export const closeReasonOf = (statusCode: number | undefined): CloseReason =>
  (Object.entries(DISCONNECT).find(([, code]) => code === statusCode)?.[0] as CloseReason | undefined) ?? "unknown";

export type ReconnectDecision =
  | { action: "reconnect"; delayMs: number; reason: CloseReason; alert?: boolean }
  | { action: "refreshVersion"; delayMs: number; reason: CloseReason }
  | { action: "stop"; reason: CloseReason }
  | { action: "logout"; reason: CloseReason; newQr: boolean };

/** consecutive 405s (each after a version refresh) before giving up */
export const MAX_VERSION_REFUSALS = 3;
/** consecutive 500s (bad session) from which each one raises an alert (the session is never cleared for it) */
export const MAX_BAD_SESSION = 3;

/**
 * `attempt`: closes in a row without an open in between; `sameInARow`: how many of them (this one included)
 * had this same status code.
 */
export const reconnectDecision = (statusCode: number | undefined, attempt: number, random: () => number = Math.random, sameInARow = 1): ReconnectDecision => {
  const reason = closeReasonOf(statusCode);
  const backoff = () => Math.round(Math.min(60_000, 1_000 * 2 ** Math.min(attempt, 6)) * (1 + 0.2 * random())); // jitter: no lockstep
  switch (statusCode) {
    case DISCONNECT.loggedOut:
      return { action: "logout", reason, newQr: true };
    case DISCONNECT.multideviceMismatch:
      return { action: "logout", reason, newQr: false };
    case DISCONNECT.forbidden:
    case DISCONNECT.connectionReplaced:
      return { action: "stop", reason };
    case DISCONNECT.methodNotAllowed:
      return sameInARow > MAX_VERSION_REFUSALS ? { action: "stop", reason } : { action: "refreshVersion", delayMs: backoff(), reason };
    case DISCONNECT.badSession:
      return sameInARow >= MAX_BAD_SESSION ? { action: "reconnect", delayMs: backoff(), reason, alert: true } : { action: "reconnect", delayMs: backoff(), reason };
    case DISCONNECT.restartRequired:
      return { action: "reconnect", delayMs: 0, reason };
    default:
      return { action: "reconnect", delayMs: backoff(), reason };
  }
};

/** QR codes shown without a scan before the session gives up and reports TIMEOUT (the user can ask a new QR). */
export const MAX_QR_ATTEMPTS = 5;
