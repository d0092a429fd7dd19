import { type Context, Hono } from "hono";
import { mfaDisableSchema, mfaEnableSchema, mfaSetupSchema, mfaVerifySchema } from "@atende/shared/contracts/http/mfa";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { Guards } from "../../platform/modules/feature-module";
import { AppError } from "../../platform/errors";
import { clientAddress, requireAdmin } from "../../platform/http/middleware";
import { parseJson } from "../../platform/http/parse";
import type { MfaService, MfaSubject } from "../mfa/mfa.service";
import type { AppEnv } from "../../platform/http/app-env";
import type { AuthService } from "./auth.service";
import { type RefreshCookie, sessionAnswer } from "./refresh-cookie";

const bearer = (c: Context) => {
  const [scheme, token] = (c.req.header("authorization") ?? "").split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : undefined;
};

/**
 * Two-factor sign-in under /auth/mfa (docs/adr/0029). Status, setup, enable and disable act on the signed-in caller
 * only (no route takes a user id); setup and enable also take the `mfaToken` of a setup-required login, and verify
 * takes only an `mfaToken`: those three answer the session as the login does. Enable and disable by a signed-in
 * caller end every other session of the user and answer the caller's renewed one (docs/adr/0064); an admin's reset
 * ends all of the user's sessions.
 */
export const mfaRoutes = (auth: AuthService, mfa: MfaService, guards: Pick<Guards, "auth">, cookie: RefreshCookie) => {
  const app = new Hono<AppEnv>();
  const subject = (a: AuthContext): Promise<MfaSubject> => auth.mfaSubject(a.companyId, a.user.id);

  app.get("/", guards.auth, async (c) => {
    const a = c.get("auth");
    return c.json(await mfa.status(a.companyId, a.user.id));
  });

  app.post("/setup", async (c) => {
    const { mfaToken } = await parseJson(c, mfaSetupSchema);
    if (mfaToken) {
      const challenge = await mfa.setupChallenge(mfaToken);
      return c.json(await mfa.setup(challenge));
    }
    const a = await auth.authenticate(bearer(c));
    return c.json(await mfa.setup({ companyId: a.companyId, userId: a.user.id, email: a.user.email }));
  });

  app.post("/enable", async (c) => {
    const { code, mfaToken } = await parseJson(c, mfaEnableSchema);
    const ip = clientAddress(c);
    if (mfaToken) {
      const challenge = await mfa.setupChallenge(mfaToken);
      const recoveryCodes = await mfa.enable(await auth.mfaSubject(challenge.companyId, challenge.userId), code, ip);
      await mfa.finishSetupChallenge(mfaToken);
      return sessionAnswer(c, cookie, await auth.completeLogin(challenge.companyId, challenge.userId, ip), { recoveryCodes });
    }
    const a = await auth.authenticate(bearer(c));
    const recoveryCodes = await mfa.enable(await subject(a), code, ip);
    // every other session of the user ends; the caller continues in a fresh one (docs/adr/0064)
    return sessionAnswer(c, cookie, await auth.renewSession(a), { recoveryCodes });
  });

  app.post("/verify", async (c) => {
    const { mfaToken, code } = await parseJson(c, mfaVerifySchema);
    const ip = clientAddress(c);
    const passed = await mfa.verify(mfaToken, code, ip, (companyId, userId) => auth.mfaSubject(companyId, userId).catch(() => null));
    return sessionAnswer(c, cookie, await auth.completeLogin(passed.companyId, passed.userId, ip));
  });

  app.post("/disable", guards.auth, async (c) => {
    const { code } = await parseJson(c, mfaDisableSchema);
    await mfa.disable(await subject(c.get("auth")), code, clientAddress(c));
    return sessionAnswer(c, cookie, await auth.renewSession(c.get("auth")));
  });

  // an admin resets a user of their own company (the id is looked up in the caller's company only)
  app.delete("/users/:userId", guards.auth, requireAdmin, async (c) => {
    const a = c.get("auth");
    const userId = Number(c.req.param("userId"));
    if (!Number.isInteger(userId) || userId <= 0) throw new AppError("ERR_NO_USER_FOUND");
    const target = await auth.mfaSubject(a.companyId, userId).catch(() => null);
    if (!target) throw new AppError("ERR_NO_USER_FOUND");
    if (target.userId === a.user.id) throw new AppError("ERR_NO_PERMISSION");
    await mfa.resetBy(await subject(a), userId, clientAddress(c));
    await auth.endSessionsOf(a.companyId, userId);
    return c.body(null, 204);
  });

  return app;
};
