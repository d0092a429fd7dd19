import { Hono } from "hono";
import { queueDistributionSchema } from "@atende/shared/contracts/http/service-levels";
import type { Guards } from "../../platform/modules/feature-module";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson } from "../../platform/http/parse";
import type { DistributionService } from "./distribution.service";

/** /distribution/queues/{queueId}: the queue's distribution settings (the queue dialog, docs/adr/0032). */
export const distributionRoutes = (service: DistributionService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/queues/:queueId", async (c) => c.json(await service.getSettings(c.get("auth"), idParam(c, "queueId", "ERR_NO_QUEUE_FOUND"))));
  r.put("/queues/:queueId", async (c) => {
    const id = idParam(c, "queueId", "ERR_NO_QUEUE_FOUND");
    return c.json(await service.saveSettings(c.get("auth"), id, await parseJson(c, queueDistributionSchema)));
  });
  return r;
};
