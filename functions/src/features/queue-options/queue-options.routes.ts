import { Hono } from "hono";
import { queueOptionListQuerySchema, queueOptionSchema, queueOptionUpdateSchema } from "@atende/shared/domain/queues/queues";
import type { Guards } from "../../platform/modules/feature-module";
import type { QueueOptionsService } from "./queue-options.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";

export const queueOptionsRoutes = (queueOptions: QueueOptionsService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth, requireAdmin);
  app.get("/", async (c) => {
    const q = parseQuery(c, queueOptionListQuerySchema);
    return c.json(await queueOptions.list(c.get("auth"), q.queueId, q.parentId));
  });
  app.post("/", async (c) => c.json(await queueOptions.create(c.get("auth"), await parseJson(c, queueOptionSchema)), 201));
  app.put("/:id", async (c) => {
    const id = idParam(c, "id");
    return c.json(await queueOptions.update(c.get("auth"), id, await parseJson(c, queueOptionUpdateSchema)));
  });
  app.delete("/:id", async (c) => {
    await queueOptions.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Option Delected" });
  });
  app.post("/:id/media-upload", async (c) => {
    const id = idParam(c, "id");
    return c.json(await queueOptions.uploadMedia(c.get("auth"), id, await uploadedFile(c)));
  });
  app.delete("/:id/media-upload", async (c) => c.json(await queueOptions.removeMedia(c.get("auth"), idParam(c, "id"))));
  return app;
};
