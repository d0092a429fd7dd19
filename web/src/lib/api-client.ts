import type { AuthResponse } from "@atende/shared/contracts/http/auth";
import { earlyRequestsReady, takeEarlyGet, takeEarlyRefresh } from "./early-requests";
import { clearSession, getToken, maybeSignedIn, saveSession, setRestoring } from "./session-storage";

/**
 * The one HTTP client. Paths are relative to /api ("/tickets", not "/api/tickets").
 * - JSON in and out; a FormData body is sent as multipart as is.
 * - Bearer token from memory (lib/session-storage, never localStorage); refresh cookie sent along (`credentials: "include"`).
 * - 403 with an expired-session code: refresh once (POST /auth/refresh_token) and retry the call.
 * - 401: the session is over; token and company id are cleared and the app shows /login.
 * - Any other failure throws ApiError with the server's `{ error }` code (see lib/toast-error.ts).
 */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** query string; null/undefined are skipped, arrays are sent as JSON (e.g. queueIds=[1,2]) */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** false for public calls (login, signup, password reset): no token, no refresh, no logout on 401 */
  auth?: boolean;
  /** "blob" for media downloads */
  responseType?: "json" | "blob";
  /** a token other than the session's (the external API's connection token): no refresh, no logout on 401 */
  bearer?: string;
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** the server's error code (`ERR_...`), or undefined when the answer had none */
    readonly code: string | undefined,
    readonly body: { error?: string; data?: unknown; issues?: { path: (string | number)[]; message: string }[] } | undefined,
  ) {
    super(code ?? `HTTP ${status}`);
    this.name = "ApiError";
  }
  get data(): unknown {
    return this.body?.data;
  }
}

export const API_BASE = "/api";

/** Codes the server sends with 403 when only the access token expired (other 403s are real refusals). */
const EXPIRED_CODES = new Set(["ERR_SESSION_EXPIRED", "ERR_TOKEN_EXPIRED"]);

export const buildUrl = (path: string, query?: Record<string, QueryValue>) => {
  const url = `${API_BASE}${path.startsWith("/") ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    params.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
};

const send = (path: string, opts: RequestOptions) => {
  const headers: Record<string, string> = { Accept: "application/json" };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  const token = opts.bearer ?? (opts.auth === false ? null : getToken());
  if (token) headers.Authorization = `Bearer ${token}`;
  const url = buildUrl(path, opts.query);
  const ask = () => fetch(url, { method: opts.method ?? "GET", headers, body, credentials: "include", signal: opts.signal });
  // the first screen's GETs may already be under way since the page load (public/session-boot.js)
  const early = (opts.method ?? "GET") === "GET" && opts.bearer === undefined && opts.auth !== false ? takeEarlyGet(url, ask) : undefined;
  return early ?? ask();
};

const readBody = async (res: Response): Promise<unknown> => {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const toError = async (res: Response): Promise<ApiError> => {
  const body = await readBody(res);
  if (body && typeof body === "object" && "error" in body) {
    const typed = body as ApiError["body"];
    return new ApiError(res.status, typeof typed?.error === "string" ? typed.error : undefined, typed);
  }
  return new ApiError(res.status, typeof body === "string" && body ? body : undefined, undefined);
};

let refreshing: Promise<AuthResponse> | null = null;
const refreshListeners = new Set<(auth: AuthResponse) => void>();

/** Called with the new session after every successful refresh (the session provider updates the user). */
export const onSessionRefreshed = (listener: (auth: AuthResponse) => void) => {
  refreshListeners.add(listener);
  return () => {
    refreshListeners.delete(listener);
  };
};

/** One refresh at a time for the whole tab; concurrent callers share it. Rejects when the session is over. */
export const refreshSession = (): Promise<AuthResponse> => {
  refreshing ??= (async () => {
    try {
      const ask = () => fetch(`${API_BASE}/auth/refresh_token`, { method: "POST", credentials: "include", headers: { Accept: "application/json" } });
      const early = takeEarlyRefresh(ask);
      const res = await (early ?? ask());
      if (!res.ok) throw await toError(res);
      const auth = (await res.json()) as AuthResponse;
      // session-boot.js registers its GETs once it has read this same answer: until then the session stays unknown
      // here, or a component's first GET (the plan, a list) would go out ahead of it and be asked twice
      if (early) await earlyRequestsReady();
      // listeners first (the session provider stores the user), so the new token finds the user already known
      refreshListeners.forEach((listener) => listener(auth));
      saveSession(auth.token, auth.user);
      return auth;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
};

/**
 * After a page load the access token is gone (it lives in memory only): the httpOnly refresh cookie, if the browser
 * has a valid one, brings the session back (main.tsx calls this once at start). Never throws: no cookie simply
 * means signed out. The session is "loading" meanwhile.
 */
export const restoreSession = async (): Promise<AuthResponse | null> => {
  if (getToken() || !maybeSignedIn()) return null;
  setRestoring(true);
  try {
    return await refreshSession();
  } catch {
    // no valid refresh cookie: signed out
    return null;
  } finally {
    setRestoring(false);
  }
};

export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const session = opts.auth !== false && opts.bearer === undefined;
  let res = await send(path, opts);
  if (session && res.status === 403) {
    const err = await toError(res.clone());
    if (err.code === undefined || EXPIRED_CODES.has(err.code)) {
      try {
        await refreshSession();
      } catch {
        clearSession();
        throw err;
      }
      res = await send(path, opts);
    }
  }
  if (!res.ok) {
    const err = await toError(res);
    if (session && res.status === 401) clearSession();
    throw err;
  }
  if (opts.responseType === "blob") return (await res.blob()) as T;
  return (await readBody(res)) as T;
}

/** Shorthands: `api.get<Ticket[]>("/tickets", { query: { pageNumber: 1 } })`, `api.post("/tags", { name })`. */
export const api = {
  get: <T>(path: string, opts?: Omit<RequestOptions, "method" | "body">) => apiRequest<T>(path, { ...opts, method: "GET" }),
  post: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, "method" | "body">) => apiRequest<T>(path, { ...opts, method: "POST", body }),
  put: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, "method" | "body">) => apiRequest<T>(path, { ...opts, method: "PUT", body }),
  patch: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, "method" | "body">) => apiRequest<T>(path, { ...opts, method: "PATCH", body }),
  delete: <T = void>(path: string, opts?: Omit<RequestOptions, "method" | "body">) => apiRequest<T>(path, { ...opts, method: "DELETE" }),
};
