import { Hono } from "hono";
import { invoicesQuerySchema } from "@atende/shared/domain/invoices/invoices";
import type { Container } from "../../app/container";
import { requireAdmin, requireAuth } from "../../platform/http/middleware";
import type { AppEnv } from "../auth/app-env";
import { parseQuery } from "../../platform/http/parse";

/** /invoices: a company's admins see their own invoices; the operator may pass companyId. */
export const invoicesRoutes = (container: Container) => {
  const { invoices } = container.services;
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(container.services.auth.authenticate), requireAdmin);
  app.get("/all", async (c) => c.json(await invoices.list(c.get("auth"), parseQuery(c, invoicesQuerySchema))));
  return app;
};
