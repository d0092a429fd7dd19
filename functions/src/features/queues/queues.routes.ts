import { Hono } from "hono";
import * as z from "zod";
import { queueSchema, queueUpdateSchema } from "@atende/shared/domain/queues/queues";
import type { Guards } from "../../platform/modules/feature-module";
import type { QueuesService } from "./queues.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";

const listQuery = z.object({ companyId: z.coerce.number().int().positive().optional() });

export const queuesRoutes = (queues: QueuesService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth);
  app.get("/", async (c) => c.json(await queues.list(c.get("auth"), parseQuery(c, listQuery).companyId)));
  app.get("/:id", async (c) => c.json(await queues.get(c.get("auth"), idParam(c, "id"))));
  app.post("/", requireAdmin, async (c) => c.json(await queues.create(c.get("auth"), await parseJson(c, queueSchema)), 201));
  app.put("/:id", requireAdmin, async (c) => {
    const id = idParam(c, "id");
    return c.json(await queues.update(c.get("auth"), id, await parseJson(c, queueUpdateSchema)));
  });
  app.delete("/:id", requireAdmin, async (c) => {
    await queues.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Queue deleted" });
  });
  app.post("/:id/media-upload", requireAdmin, async (c) => {
    const id = idParam(c, "id");
    return c.json(await queues.uploadMedia(c.get("auth"), id, await uploadedFile(c)));
  });
  app.delete("/:id/media-upload", requireAdmin, async (c) => c.json(await queues.removeMedia(c.get("auth"), idParam(c, "id"))));
  return app;
};
