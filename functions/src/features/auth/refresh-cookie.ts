import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import type { AppEnv } from "../../platform/http/app-env";
import type { SessionResult } from "./auth.service";

export const REFRESH_COOKIE = "jrt";

/** The refresh cookie's settings (config COOKIE_SECURE, REFRESH_TOKEN_TTL_SECONDS). */
export type RefreshCookie = { secure: boolean; maxAgeSeconds: number };

/**
 * The answer of every call that starts or renews a session (login, refresh, two-factor verify and enable): the
 * refresh token in its httpOnly cookie, the access token and the user in the body (plus `extra`).
 */
export const sessionAnswer = (c: Context<AppEnv>, cookie: RefreshCookie, session: SessionResult, extra: Record<string, unknown> = {}) => {
  setCookie(c, REFRESH_COOKIE, session.refreshToken, {
    httpOnly: true,
    secure: cookie.secure,
    sameSite: "Strict",
    path: "/api/auth",
    maxAge: cookie.maxAgeSeconds,
  });
  return c.json({ ...extra, token: session.token, user: session.user });
};
