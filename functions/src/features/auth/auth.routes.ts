import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { loginSchema } from "@atende/shared/domain/auth/auth";
import type { Container } from "../../app/container";
import { clientAddress, requireAuth } from "../../platform/http/middleware";
import type { AppEnv } from "./app-env";
import { parseJson } from "../../platform/http/parse";
import type { SessionResult } from "./auth.service";

export const REFRESH_COOKIE = "jrt";

export const authRoutes = (container: Container) => {
  const { auth } = container.services;
  const { config } = container;
  const app = new Hono<AppEnv>();

  const withRefreshCookie = (c: Context<AppEnv>, session: SessionResult) => {
    setCookie(c, REFRESH_COOKIE, session.refreshToken, {
      httpOnly: true,
      secure: config.COOKIE_SECURE,
      sameSite: "Strict",
      path: "/api/auth",
      maxAge: config.REFRESH_TOKEN_TTL_SECONDS,
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

  app.delete("/logout", requireAuth(container.services.auth.authenticate), async (c) => {
    await auth.logout(c.get("auth"));
    deleteCookie(c, REFRESH_COOKIE, { path: "/api/auth" });
    return c.body(null, 204);
  });

  app.get("/me", requireAuth(container.services.auth.authenticate), async (c) => c.json(await auth.me(c.get("auth"))));

  return app;
};
