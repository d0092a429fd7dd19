import { Hono } from "hono";
import { settingUpdateSchema } from "@atende/shared/domain/settings/settings";
import type { Guards } from "../../platform/modules/feature-module";
import type { SettingsService } from "./settings.service";

import type { AppEnv } from "../../platform/http/app-env";
import { parseJson } from "../../platform/http/parse";

export const settingsRoutes = (settings: SettingsService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.get("/", guards.auth, async (c) => c.json(await settings.list(c.get("auth"))));
  app.put("/:key", guards.auth, async (c) => {
    const key = c.req.param("key").slice(0, 64);
    const { value } = await parseJson(c, settingUpdateSchema);
    return c.json(await settings.update(c.get("auth"), key, value));
  });
  return app;
};
