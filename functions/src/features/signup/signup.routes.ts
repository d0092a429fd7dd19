import { Hono } from "hono";
import { signupSchema } from "@atende/shared/domain/companies/companies";
import type { SignupService } from "./signup.service";
import { clientAddress } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { parseJson } from "../../platform/http/parse";

/** POST /companies/cadastro: public (no token). Mounted before the companies routes. */
export const signupRoutes = (signup: SignupService) => {
  const app = new Hono<AppEnv>();
  app.post("/cadastro", async (c) => c.json(await signup.signup(await parseJson(c, signupSchema), clientAddress(c)), 201));
  return app;
};
