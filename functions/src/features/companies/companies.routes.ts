import { Hono } from "hono";
import { companyTimeZoneSchema } from "@atende/shared/domain/calendar/time-zone";
import * as z from "zod";
import { pageNumberParam } from "@atende/shared/contracts/http/paging";
import { companySchema } from "@atende/shared/domain/companies/companies";
import { schedulesSchema } from "@atende/shared/domain/queues/queues";
import type { Guards } from "../../platform/modules/feature-module";
import type { CompaniesService } from "./companies.service";
import { requireAdmin, requireSuper } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";

const listQuery = z.object({
  searchParam: z.string().max(100).optional().default(""),
  pageNumber: pageNumberParam,
});

/** /companies: the operator's calls, plus each company's own plan, record and working hours. */
export const companiesRoutes = (companies: CompaniesService, guards: Pick<Guards, "auth">) => {
  const auth = guards.auth;
  const app = new Hono<AppEnv>();
  app.get("/listPlan/:companyId", auth, async (c) => c.json(await companies.listPlan(c.get("auth"), idParam(c, "companyId"))));
  app.get("/list", auth, requireSuper, async (c) => c.json(await companies.listAll()));
  app.get("/", auth, requireSuper, async (c) => {
    const q = parseQuery(c, listQuery);
    return c.json(await companies.listPaged(q.searchParam, q.pageNumber));
  });
  app.get("/:id", auth, async (c) => c.json(await companies.get(c.get("auth"), idParam(c, "id"))));
  app.post("/", auth, requireSuper, async (c) => c.json(await companies.create(await parseJson(c, companySchema), {}, c.get("auth")), 201));
  app.put("/:id/schedules", auth, requireAdmin, async (c) => {
    const id = idParam(c, "id");
    const { schedules } = await parseJson(c, z.object({ schedules: schedulesSchema }));
    return c.json(await companies.updateSchedules(c.get("auth"), id, schedules));
  });
  // issue 13: the company's own time zone (protocol dates, SLA business time), set by its admin
  app.put("/:id/timezone", auth, requireAdmin, async (c) => {
    const id = idParam(c, "id");
    const { timezone } = await parseJson(c, companyTimeZoneSchema);
    return c.json(await companies.updateTimezone(c.get("auth"), id, timezone));
  });
  app.put("/:id", auth, requireSuper, async (c) => {
    const id = idParam(c, "id");
    return c.json(await companies.update(id, await parseJson(c, companySchema), c.get("auth")));
  });
  app.delete("/:id", auth, requireSuper, async (c) => {
    await companies.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Company deleted" });
  });
  return app;
};
