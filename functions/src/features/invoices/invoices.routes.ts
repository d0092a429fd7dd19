import { Hono } from "hono";
import { invoicesQuerySchema } from "@atende/shared/domain/invoices/invoices";
import type { Guards } from "../../platform/modules/feature-module";
import type { InvoicesService } from "./invoices.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { parseQuery } from "../../platform/http/parse";

/** /invoices: a company's admins see their own invoices; the operator may pass companyId. */
export const invoicesRoutes = (invoices: InvoicesService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth, requireAdmin);
  app.get("/all", async (c) => c.json(await invoices.list(c.get("auth"), parseQuery(c, invoicesQuerySchema))));
  return app;
};
