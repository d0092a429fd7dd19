import { Hono } from "hono";
import * as z from "zod";
import { optionalNum } from "@atende/shared/contracts/body-values";
import type { Guards } from "../../platform/modules/feature-module";
import type { DashboardService } from "./dashboard.service";
import { requirePermission } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { parseQuery } from "../../platform/http/parse";

/** A calendar day (yyyy-MM-dd, read in the company's time zone); "" (a filter left empty by the spec's client) is none. */
const day = z.union([z.literal("").transform(() => undefined), z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((v) => !Number.isNaN(Date.parse(v)))]);
const days = optionalNum(z.number().int().min(1).max(90).optional());
const summaryQuery = z.object({
  days,
  date_from: day.optional(),
  date_to: day.optional(),
});
const chartQuery = z.object({ initialDate: day.optional(), finalDate: day.optional(), days });

/** GET /dashboard, /dashboard/ticketsUsers, /dashboard/ticketsDay: the company's admins and supervisors (companyId is the token's). */
export const dashboardRoutes = (dashboard: DashboardService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth, requirePermission("dashboard:view"));
  app.get("/", async (c) => {
    const q = parseQuery(c, summaryQuery);
    return c.json(await dashboard.summary(c.get("auth"), { days: q.days, dateFrom: q.date_from, dateTo: q.date_to }));
  });
  app.get("/ticketsUsers", async (c) => {
    const q = parseQuery(c, chartQuery);
    return c.json(await dashboard.ticketsUsers(c.get("auth"), { days: q.days, dateFrom: q.initialDate, dateTo: q.finalDate }));
  });
  app.get("/ticketsDay", async (c) => {
    const q = parseQuery(c, chartQuery);
    return c.json(await dashboard.ticketsDay(c.get("auth"), { days: q.days, dateFrom: q.initialDate, dateTo: q.finalDate }));
  });
  return app;
};
