import { Hono } from "hono";
import { authRoutes } from "../../features/auth/auth.routes";
import { companiesRoutes } from "../../features/companies/companies.routes";
import { helpsRoutes } from "../../features/helps/helps.routes";
import { logosRoutes } from "../../features/logos/logos.routes";
import { passwordResetRoutes } from "../../features/password-reset/password-reset.routes";
import { plansRoutes } from "../../features/plans/plans.routes";
import { queueOptionsRoutes } from "../../features/queue-options/queue-options.routes";
import { queuesRoutes } from "../../features/queues/queues.routes";
import { settingsRoutes } from "../../features/settings/settings.routes";
import { signupRoutes } from "../../features/signup/signup.routes";
import { usersRoutes } from "../../features/users/users.routes";
import type { Container } from "../container";
import { sendError } from "./error-handler";
import { type AppEnv, requestId } from "./middleware";

/**
 * The HTTP API: one Hono app, served by the api Lambda in AWS and by the local runner on this machine.
 * Every route lives under /api (CloudFront routes /api/* to the HTTP API).
 */
export const createHttpApp = (container: Container) => {
  const api = new Hono<AppEnv>();
  api.use("*", requestId);
  api.onError((err, c) => sendError(c, err, container.logger));
  api.notFound((c) => c.json({ error: "ERR_NOT_FOUND" }, 404));

  api.get("/version", (c) => c.json({ version: container.config.APP_VERSION }));
  api.route("/auth", authRoutes(container));
  api.route("/companies", signupRoutes(container)); // public POST /companies/cadastro, before the private ones
  api.route("/companies", companiesRoutes(container));
  api.route("/", logosRoutes(container)); // /settings/media-upload, /public/*
  api.route("/", passwordResetRoutes(container)); // public /forgetpassword, /resetpasswords
  api.route("/queue", queuesRoutes(container));
  api.route("/queue-options", queueOptionsRoutes(container));
  api.route("/users", usersRoutes(container));
  api.route("/settings", settingsRoutes(container));
  api.route("/plans", plansRoutes(container));
  api.route("/helps", helpsRoutes(container));

  const root = new Hono();
  root.route("/api", api);
  return root;
};
