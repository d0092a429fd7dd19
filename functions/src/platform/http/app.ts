import { Hono } from "hono";
import { authRoutes } from "../../features/auth/auth.routes";
import { companiesRoutes } from "../../features/companies/companies.routes";
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
  api.route("/companies", companiesRoutes(container));

  const root = new Hono();
  root.route("/api", api);
  return root;
};
