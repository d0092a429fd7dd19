import { Hono } from "hono";
import { agentCapacityInputSchema, agentStatusInputSchema, pauseReasonInputSchema } from "@atende/shared/contracts/http/service-levels";
import type { Guards } from "../../platform/modules/feature-module";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson } from "../../platform/http/parse";
import type { AgentStatusService } from "./agent-status.service";

/** /agents: status, capacity and status history (docs/adr/0032). */
export const agentsRoutes = (service: AgentStatusService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/", async (c) => c.json(await service.list(c.get("auth"))));
  r.get("/me", async (c) => c.json(await service.me(c.get("auth"))));
  r.put("/me/status", async (c) => c.json(await service.setStatus(c.get("auth"), await parseJson(c, agentStatusInputSchema))));
  r.put("/:userId", async (c) => {
    const id = idParam(c, "userId", "ERR_NO_USER_FOUND");
    return c.json(await service.setCapacity(c.get("auth"), id, (await parseJson(c, agentCapacityInputSchema)).capacity));
  });
  r.get("/:userId/history", async (c) => c.json(await service.history(c.get("auth"), idParam(c, "userId", "ERR_NO_USER_FOUND"))));
  return r;
};

/** /pause-reasons: the company's list (everyone reads it for the top bar; admins edit it). */
export const pauseReasonsRoutes = (service: AgentStatusService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/", async (c) => c.json(await service.listReasons(c.get("auth"))));
  r.post("/", async (c) => c.json(await service.createReason(c.get("auth"), (await parseJson(c, pauseReasonInputSchema)).name), 201));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id", "ERR_NO_PAUSE_REASON_FOUND");
    return c.json(await service.renameReason(c.get("auth"), id, (await parseJson(c, pauseReasonInputSchema)).name));
  });
  r.delete("/:id", async (c) => {
    await service.removeReason(c.get("auth"), idParam(c, "id", "ERR_NO_PAUSE_REASON_FOUND"));
    return c.json({ message: "Pause reason deleted" });
  });
  return r;
};
