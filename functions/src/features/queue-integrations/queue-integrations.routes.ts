import { Hono } from "hono";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { dialogflowTestSchema, queueIntegrationSchema } from "@atende/shared/domain/queue-integrations/queue-integration";
import type { Guards } from "../../platform/modules/feature-module";
import type { QueueIntegrationsService } from "./queue-integrations.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";

const listQuery = searchPageQuerySchema;

/** Queue integrations (spec 3): /queueIntegration, admins only, plan flag useIntegrations on every call. */
export const queueIntegrationsRoutes = (queueIntegrations: QueueIntegrationsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth, requireAdmin, guards.plan("useIntegrations"));
  r.get("/", async (c) => c.json(await queueIntegrations.list(c.get("auth"), parseQuery(c, listQuery))));
  r.post("/testSession", async (c) => c.json(await queueIntegrations.testSession(c.get("auth"), await parseJson(c, dialogflowTestSchema))));
  r.post("/:id/rotate-secret", async (c) => c.json(await queueIntegrations.rotateSecret(c.get("auth"), idParam(c, "id", "ERR_NO_INTEGRATION_FOUND"))));
  r.get("/:id", async (c) => c.json(await queueIntegrations.get(c.get("auth"), idParam(c, "id", "ERR_NO_INTEGRATION_FOUND"))));
  r.post("/", async (c) => c.json(await queueIntegrations.create(c.get("auth"), await parseJson(c, queueIntegrationSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id", "ERR_NO_INTEGRATION_FOUND");
    return c.json(await queueIntegrations.update(c.get("auth"), id, await parseJson(c, queueIntegrationSchema)));
  });
  r.delete("/:id", async (c) => {
    await queueIntegrations.remove(c.get("auth"), idParam(c, "id", "ERR_NO_INTEGRATION_FOUND"));
    return c.json({ message: "Integration deleted" });
  });
  return r;
};
