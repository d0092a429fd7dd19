import { Hono } from "hono";
import type { Container } from "../../platform/container";
import { type AppEnv, requireAuth } from "../../platform/http/middleware";
import { idParam } from "../../platform/http/parse";

export const companiesRoutes = (container: Container) => {
  const { companies } = container.services;
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(container));
  app.get("/listPlan/:companyId", async (c) => c.json(await companies.listPlan(c.get("auth"), idParam(c, "companyId"))));
  return app;
};
