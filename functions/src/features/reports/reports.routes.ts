import { Hono } from "hono";
import * as z from "zod";
import { reportExportSchema, reportFiltersSchema, reportQuerySchema } from "@atende/shared/contracts/http/reports";
import type { Guards } from "../../platform/modules/feature-module";
import { AppError } from "../../platform/errors";
import { requirePermission } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { parseJson, parseQuery } from "../../platform/http/parse";
import type { ReportsService } from "./reports.service";

const attachment = (filename: string) => `attachment; filename="${filename.replace(/[^\w.\-]+/g, "_")}"`;
const exportId = z.string().uuid();
const idOf = (raw: string | undefined) => {
  const parsed = exportId.safeParse(raw);
  if (!parsed.success) throw new AppError("ERR_NOT_FOUND");
  return parsed.data;
};

/**
 * GET /ticket/reports (the spec's call) and /reports: CSAT, exports (docs/adr/0034-reports.md). The company's admins and supervisors
 * only (the dashboard's audience); the company is the token's.
 */
export const reportsRoutes = (reports: ReportsService, guards: Guards) => {
  const ticket = new Hono<AppEnv>();
  ticket.get("/reports", guards.auth, requirePermission("reports:view"), async (c) => c.json(await reports.list(c.get("auth"), parseQuery(c, reportQuerySchema))));

  const app = new Hono<AppEnv>();
  app.use("*", guards.auth, requirePermission("reports:view"));
  app.get("/csat", async (c) => c.json(await reports.csat(c.get("auth"), parseQuery(c, reportFiltersSchema))));
  app.post("/exports", async (c) => {
    const job = await reports.startExport(c.get("auth"), await parseJson(c, reportExportSchema));
    return c.json({ job }, job.status === "running" ? 202 : 200);
  });
  app.get("/exports/:id", async (c) => c.json(await reports.getExport(c.get("auth"), idOf(c.req.param("id")))));
  app.get("/exports/:id/download", async (c) => {
    const file = await reports.download(c.get("auth"), idOf(c.req.param("id")));
    return new Response(file.body, { status: 200, headers: { "content-type": file.mimetype, "content-disposition": attachment(file.filename), "cache-control": "no-store" } });
  });
  return { ticket, reports: app };
};
