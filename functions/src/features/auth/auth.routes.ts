import { Hono } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import { loginSchema } from "@atende/shared/domain/auth/auth";
import type { Guards } from "../../platform/modules/feature-module";
import type { AuthService } from "./auth.service";
import { clientAddress } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { parseJson } from "../../platform/http/parse";
import { REFRESH_COOKIE, type RefreshCookie, sessionAnswer } from "./refresh-cookie";

export { REFRESH_COOKIE } from "./refresh-cookie";

/** `cookie`: the refresh cookie's settings (config COOKIE_SECURE, REFRESH_TOKEN_TTL_SECONDS). */
export const authRoutes = (auth: AuthService, guards: Pick<Guards, "auth">, cookie: RefreshCookie) => {
  const app = new Hono<AppEnv>();

  app.post("/login", async (c) => {
    const input = await parseJson(c, loginSchema);
    const result = await auth.login(input.email, input.password, clientAddress(c));
    // two-factor: the second step's challenge only, no cookie, no session yet (docs/adr/0029)
    if ("mfaRequired" in result) return c.json(result);
    return sessionAnswer(c, cookie, result);
  });

  app.post("/refresh_token", async (c) => {
    try {
      return sessionAnswer(c, cookie, await auth.refresh(getCookie(c, REFRESH_COOKIE)));
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
