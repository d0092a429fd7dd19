import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { loginSchema } from "@atende/shared/domain/auth/auth";
import type { Guards } from "../../platform/modules/feature-module";
import type { AuthService } from "./auth.service";
import { clientAddress } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { parseJson } from "../../platform/http/parse";
import type { SessionResult } from "./auth.service";

export const REFRESH_COOKIE = "jrt";

/** `cookie`: the refresh cookie's settings (config COOKIE_SECURE, REFRESH_TOKEN_TTL_SECONDS). */
export const authRoutes = (auth: AuthService, guards: Pick<Guards, "auth">, cookie: { secure: boolean; maxAgeSeconds: number }) => {
  const app = new Hono<AppEnv>();

  const withRefreshCookie = (c: Context<AppEnv>, session: SessionResult) => {
    setCookie(c, REFRESH_COOKIE, session.refreshToken, {
      httpOnly: true,
      secure: cookie.secure,
      sameSite: "Strict",
      path: "/api/auth",
      maxAge: cookie.maxAgeSeconds,
    });
    return c.json({ token: session.token, user: session.user });
  };

  app.post("/login", async (c) => {
    const input = await parseJson(c, loginSchema);
    return withRefreshCookie(c, await auth.login(input.email, input.password, clientAddress(c)));
  });

  app.post("/refresh_token", async (c) => {
    try {
      return withRefreshCookie(c, await auth.refresh(getCookie(c, REFRESH_COOKIE)));
    } catch (e) {
      deleteCookie(c, REFRESH_COOKIE, { path: "/api/auth" });
      throw e;
    }
  });

  app.delete("/logout", guards.auth, async (c) => {
    await auth.logout(c.get("auth"));
    deleteCookie(c, REFRESH_COOKIE, { path: "/api/auth" });
    return c.body(null, 204);
  });

  app.get("/me", guards.auth, async (c) => c.json(await auth.me(c.get("auth"))));

  return app;
};
