import { Hono } from "hono";
import * as z from "zod";
import { holidaySchema } from "@atende/shared/domain/service-levels/holidays";
import type { Guards } from "../../platform/modules/feature-module";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson } from "../../platform/http/parse";
import { AppError } from "../../platform/errors";
import type { HolidaysService } from "./holidays.service";

const yearSchema = z.coerce.number().int().min(2000).max(2100);

/** /holidays: the company's own holidays and closures (SLA business time); Brazil's national ones are answered beside. */
export const holidaysRoutes = (holidays: HolidaysService, guards: Guards, clock: () => Date) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth);
  app.get("/", async (c) => {
    const raw = c.req.query("year");
    const year = raw === undefined ? clock().getUTCFullYear() : yearSchema.safeParse(raw).data;
    if (year === undefined) throw new AppError("ERR_VALIDATION");
    return c.json(await holidays.list(c.get("auth"), year));
  });
  app.post("/", requireAdmin, async (c) => c.json(await holidays.create(c.get("auth"), await parseJson(c, holidaySchema)), 201));
  app.put("/:id", requireAdmin, async (c) => {
    const id = idParam(c, "id");
    return c.json(await holidays.update(c.get("auth"), id, await parseJson(c, holidaySchema)));
  });
  app.delete("/:id", requireAdmin, async (c) => {
    await holidays.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Holiday deleted" });
  });
  return app;
};
