/**
 * The browser side of the session, in memory only: the access token and the signed-in user's ids live in this
 * module, never in localStorage or sessionStorage, so a script that ever ran on our origin would find nothing to
 * steal (docs/security.md). The refresh token is an httpOnly cookie the browser keeps; after a reload
 * `restoreSession` (lib/api-client) trades it for a new access token (POST /auth/refresh_token).
 * Components follow changes through `subscribeSession` (useSyncExternalStore).
 */
let token: string | null = null;
let ids: { userId: number; companyId: number } | null = null;
/** true while the restore attempt of this page load runs (the app shows a loader meanwhile) */
let restoring = false;

/**
 * A hint, not a secret: "this browser signed in and has not signed out". Without it a page load does not ask
 * for a refresh (a signed-out visitor would only get a 401 logged in the console). It holds no token.
 */
export const SIGNED_IN_HINT = "signedIn";
const setHint = (on: boolean) => {
  try {
    if (on) localStorage.setItem(SIGNED_IN_HINT, "1");
    else localStorage.removeItem(SIGNED_IN_HINT);
  } catch {
    // storage unavailable (private mode quota, sandbox): the restore simply always asks
  }
};
/** Whether this browser may hold a refresh cookie worth trading (see SIGNED_IN_HINT). */
export const maybeSignedIn = (): boolean => {
  try {
    return localStorage.getItem(SIGNED_IN_HINT) === "1";
  } catch {
    return true;
  }
};

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export const getToken = (): string | null => token;

export const getCompanyId = (): number | null => ids?.companyId ?? null;

export const saveSession = (next: string, user?: { id: number; companyId: number }) => {
  token = next;
  setHint(true);
  if (user) ids = { userId: user.id, companyId: user.companyId };
  restoring = false;
  notify();
};

/** Logged out: token and ids gone; listeners (the session provider) move to the logged-out state. */
export const clearSession = () => {
  token = null;
  ids = null;
  restoring = false;
  setHint(false);
  notify();
};

/** Whether the page is still finding out if the refresh cookie holds a session (right after a load). */
export const isRestoring = (): boolean => restoring && token === null;

/** A restore attempt starts (true) or settled, signed in or not (false). */
export const setRestoring = (value: boolean) => {
  if (restoring === value) return;
  restoring = value;
  notify();
};

export const subscribeSession = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
