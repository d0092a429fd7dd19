/**
 * The browser side of the session: the access token and the company id in localStorage
 * (spec 1: "logged in when a token exists"). The refresh token is an httpOnly cookie the browser keeps.
 * Components follow changes through `subscribeSession` (useSyncExternalStore).
 */
export const TOKEN_KEY = "token";
export const COMPANY_ID_KEY = "companyId";
export const USER_ID_KEY = "userId";

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export const getToken = (): string | null => localStorage.getItem(TOKEN_KEY);

export const getCompanyId = (): number | null => {
  const value = Number(localStorage.getItem(COMPANY_ID_KEY));
  return Number.isInteger(value) && value > 0 ? value : null;
};

export const saveSession = (token: string, user?: { id: number; companyId: number }) => {
  localStorage.setItem(TOKEN_KEY, token);
  if (user) {
    localStorage.setItem(COMPANY_ID_KEY, String(user.companyId));
    localStorage.setItem(USER_ID_KEY, String(user.id));
  }
  notify();
};

/** Logged out: token and company id gone; listeners (the session provider) move to the logged-out state. */
export const clearSession = () => {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(COMPANY_ID_KEY);
  localStorage.removeItem(USER_ID_KEY);
  notify();
};

export const subscribeSession = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
