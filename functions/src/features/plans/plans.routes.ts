import { Hono } from "hono";
import { planSchema } from "@atende/shared/domain/plans/plan";
import type { Guards } from "../../platform/modules/feature-module";
import type { PlansService } from "./plans.service";
import { requireSuper } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson } from "../../platform/http/parse";

export const plansRoutes = (plans: PlansService, guards: Guards) => {
  const auth = guards.auth;
  const app = new Hono<AppEnv>();
  // public: the sign-up page lists plans before anyone logs in
  app.get("/list", async (c) => c.json(await plans.listPublic()));
  app.get("/register", async (c) => c.json(await plans.listPublic()));
  app.get("/all", auth, async (c) => c.json(await plans.listAll()));
  app.get("/", auth, requireSuper, async (c) => c.json(await plans.listAll()));
  app.get("/:id", auth, async (c) => c.json(await plans.get(idParam(c, "id"))));
  app.post("/", auth, requireSuper, async (c) => c.json(await plans.create(await parseJson(c, planSchema)), 201));
  app.put("/:id", auth, requireSuper, async (c) => {
    const id = idParam(c, "id");
    return c.json(await plans.update(id, await parseJson(c, planSchema)));
  });
  app.delete("/:id", auth, requireSuper, async (c) => {
    await plans.remove(idParam(c, "id"));
    return c.json({ message: "Plan deleted" });
  });
  return app;
};
