import { Hono } from "hono";
import { helpSchema } from "@atende/shared/domain/settings/settings";
import type { Guards } from "../../platform/modules/feature-module";
import type { HelpsService } from "./helps.service";
import { requireSuper } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson } from "../../platform/http/parse";

export const helpsRoutes = (helps: HelpsService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth);
  app.get("/", async (c) => c.json(await helps.list()));
  app.get("/list", async (c) => c.json(await helps.list()));
  app.get("/:id", async (c) => c.json(await helps.get(idParam(c, "id"))));
  app.post("/", requireSuper, async (c) => c.json(await helps.create(await parseJson(c, helpSchema)), 201));
  app.put("/:id", requireSuper, async (c) => {
    const id = idParam(c, "id");
    return c.json(await helps.update(id, await parseJson(c, helpSchema)));
  });
  app.delete("/:id", requireSuper, async (c) => {
    await helps.remove(idParam(c, "id"));
    return c.json({ message: "Help deleted" });
  });
  return app;
};
