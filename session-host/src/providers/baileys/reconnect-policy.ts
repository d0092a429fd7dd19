/**
 * What to do when a Baileys socket closes. Logged out (the phone removed this device): clear the session and
 * ask for a new QR. Every other reason: reconnect, at once after a restart request (515, normal right after
 * pairing), otherwise with exponential backoff capped at a minute.
 */
export const DISCONNECT = { loggedOut: 401, restartRequired: 515, connectionReplaced: 440, badSession: 500, timedOut: 408, connectionClosed: 428 } as const;

export type ReconnectDecision = { action: "logout" } | { action: "reconnect"; delayMs: number };

export const reconnectDecision = (statusCode: number | undefined, attempt: number, random: () => number = Math.random): ReconnectDecision => {
  if (statusCode === DISCONNECT.loggedOut) return { action: "logout" };
  if (statusCode === DISCONNECT.restartRequired) return { action: "reconnect", delayMs: 0 };
  const base = Math.min(60_000, 1_000 * 2 ** Math.min(attempt, 6));
  // up to 20% jitter so many sessions of one host do not reconnect in lockstep
  return { action: "reconnect", delayMs: Math.round(base * (1 + 0.2 * random())) };
};

/** QR codes shown without a scan before the session gives up and reports TIMEOUT (the user can ask a new QR). */
export const MAX_QR_ATTEMPTS = 5;
