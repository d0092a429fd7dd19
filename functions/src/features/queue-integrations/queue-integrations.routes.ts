import { Hono } from "hono";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { dialogflowTestSchema, queueIntegrationSchema } from "@atende/shared/domain/queue-integrations/queue-integration";
import type { Container } from "../../app/container";
import { requireAdmin, requireAuth, requirePlan } from "../../platform/http/middleware";
import type { AppEnv } from "../auth/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";

const listQuery = searchPageQuerySchema;

/** Queue integrations (spec 3): /queueIntegration, admins only, plan flag useIntegrations on every call. */
export const queueIntegrationsRoutes = (container: Container) => {
  const svc = () => container.services.queueIntegrations;
  const r = new Hono<AppEnv>();
  r.use("*", requireAuth(container.services.auth.authenticate), requireAdmin, requirePlan(container.services.companies.assertPlanAllows, "useIntegrations"));
  r.get("/", async (c) => c.json(await svc().list(c.get("auth"), parseQuery(c, listQuery))));
  r.post("/testSession", async (c) => c.json(await svc().testSession(c.get("auth"), await parseJson(c, dialogflowTestSchema))));
  r.get("/:id", async (c) => c.json(await svc().get(c.get("auth"), idParam(c, "id", "ERR_NO_INTEGRATION_FOUND"))));
  r.post("/", async (c) => c.json(await svc().create(c.get("auth"), await parseJson(c, queueIntegrationSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id", "ERR_NO_INTEGRATION_FOUND");
    return c.json(await svc().update(c.get("auth"), id, await parseJson(c, queueIntegrationSchema)));
  });
  r.delete("/:id", async (c) => {
    await svc().remove(c.get("auth"), idParam(c, "id", "ERR_NO_INTEGRATION_FOUND"));
    return c.json({ message: "Integration deleted" });
  });
  return r;
};
