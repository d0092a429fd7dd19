import { Hono } from "hono";
import { auditLogQuerySchema } from "@atende/shared/contracts/http/audit";
import type { Guards } from "../../platform/modules/feature-module";
import { clientAddress } from "../../platform/http/middleware";
import { parseQuery } from "../../platform/http/parse";
import type { AppEnv } from "../../platform/http/app-env";
import type { AuditService } from "./audit.service";

/**
 * GET /audit-logs (admins: their company; the operator: every company, or `?companyId=`) and GET /audit-logs/export
 * (the same filters as CSV). Read only: no route writes, changes or deletes an entry (any other method is 404).
 */
export const auditRoutes = (audit: AuditService, guards: Pick<Guards, "auth">) => {
  const app = new Hono<AppEnv>();
  app.get("/", guards.auth, async (c) => c.json(await audit.list(c.get("auth"), parseQuery(c, auditLogQuerySchema))));
  app.get("/export", guards.auth, async (c) => {
    const csv = await audit.exportCsv(c.get("auth"), parseQuery(c, auditLogQuerySchema), clientAddress(c));
    return c.body(csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="auditoria-${new Date().toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
    });
  });
  return app;
};
