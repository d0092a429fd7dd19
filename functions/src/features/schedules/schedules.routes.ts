import { Hono } from "hono";
import * as z from "zod";
import { pageNumberParam, searchParamParam } from "@atende/shared/contracts/http/paging";
import { scheduleSchema, scheduleUpdateSchema } from "@atende/shared/domain/schedules/schedule";
import type { Guards } from "../../platform/modules/feature-module";
import type { SchedulesService } from "./schedules.service";

import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";

const listQuery = z.object({
  searchParam: searchParamParam,
  pageNumber: pageNumberParam,
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

/** Scheduled messages (spec 3): every call needs the plan's useSchedules. */
export const schedulesRoutes = (schedules: SchedulesService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth, guards.plan("useSchedules"));
  r.get("/", async (c) => {
    const q = parseQuery(c, listQuery);
    const iso = (v?: string) => (v ? new Date(v).toISOString() : undefined);
    return c.json(await schedules.list(c.get("auth"), { ...q, from: iso(q.from), to: iso(q.to) }));
  });
  r.get("/:id", async (c) => c.json(await schedules.get(c.get("auth"), idParam(c, "id"))));
  r.post("/", async (c) => c.json(await schedules.create(c.get("auth"), await parseJson(c, scheduleSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id");
    return c.json(await schedules.update(c.get("auth"), id, await parseJson(c, scheduleUpdateSchema)));
  });
  r.delete("/:id", async (c) => {
    await schedules.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Schedule deleted" });
  });
  r.post("/:id/media-upload", async (c) => {
    const id = idParam(c, "id");
    return c.json(await schedules.uploadMedia(c.get("auth"), id, await uploadedFile(c)));
  });
  r.delete("/:id/media-upload", async (c) => c.json(await schedules.removeMedia(c.get("auth"), idParam(c, "id"))));
  return r;
};
