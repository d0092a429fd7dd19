import { Hono } from "hono";
import type { Guards } from "../../platform/modules/feature-module";
import { requirePermission } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import type { SupervisorService } from "./supervisor.service";

/** GET /supervisor/overview: the company's admins and supervisors (the token's company). */
export const supervisorRoutes = (supervisor: SupervisorService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth, requirePermission("supervisor:cockpit"));
  app.get("/overview", async (c) => c.json(await supervisor.overview(c.get("auth"))));
  return app;
};
