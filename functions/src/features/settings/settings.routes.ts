import { Hono } from "hono";
import { settingUpdateSchema } from "@atende/shared/domain/settings/settings";
import type { Container } from "../../app/container";
import { requireAuth } from "../../platform/http/middleware";
import type { AppEnv } from "../auth/app-env";
import { parseJson } from "../../platform/http/parse";

export const settingsRoutes = (container: Container) => {
  const { settings } = container.services;
  const app = new Hono<AppEnv>();
  app.get("/", requireAuth(container.services.auth.authenticate), async (c) => c.json(await settings.list(c.get("auth"))));
  app.put("/:key", requireAuth(container.services.auth.authenticate), async (c) => {
    const key = c.req.param("key").slice(0, 64);
    const { value } = await parseJson(c, settingUpdateSchema);
    return c.json(await settings.update(c.get("auth"), key, value));
  });
  return app;
};
