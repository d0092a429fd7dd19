import { Hono } from "hono";
import { flowSaveRequestSchema, flowTestRequestSchema } from "@atende/shared/contracts/http/flows";
import type { Guards } from "../../platform/modules/feature-module";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";
import type { FlowMedia } from "./flow-media";
import type { FlowsService } from "./flows.service";

/** Flows (issue 30): /flows, admins only, the plan's integrations flag on every call. Shapes: shared/src/contracts/http/flows.ts. */
export const flowsRoutes = (flows: FlowsService, flowMedia: FlowMedia, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth, requireAdmin, guards.plan("useIntegrations"));
  const id = (c: Parameters<typeof idParam>[0]) => idParam(c, "id", "ERR_NO_FLOW_FOUND");
  r.get("/", async (c) => c.json(await flows.list(c.get("auth"))));
  r.post("/", async (c) => c.json(await flows.create(c.get("auth"), await parseJson(c, flowSaveRequestSchema)), 201));
  // a file for a `media` node (multipart, field `file`): 201 { key, name, mimetype }, the node's `file`
  r.post("/media", async (c) => c.json(await flowMedia.upload(c.get("auth"), await uploadedFile(c)), 201));
  r.get("/:id", async (c) => c.json(await flows.get(c.get("auth"), id(c))));
  r.put("/:id", async (c) => {
    const flowId = id(c);
    return c.json(await flows.update(c.get("auth"), flowId, await parseJson(c, flowSaveRequestSchema)));
  });
  r.delete("/:id", async (c) => {
    const out = await flows.remove(c.get("auth"), id(c));
    return out.archived ? c.json(out) : c.body(null, 204);
  });
  r.post("/:id/publish", async (c) => c.json(await flows.publish(c.get("auth"), id(c))));
  r.get("/:id/versions/:version", async (c) => c.json(await flows.version(c.get("auth"), id(c), idParam(c, "version", "ERR_NOT_FOUND"))));
  r.get("/:id/stats", async (c) => c.json(await flows.stats(c.get("auth"), id(c))));
  r.post("/:id/test", async (c) => {
    const flowId = id(c);
    return c.json(await flows.test(c.get("auth"), flowId, await parseJson(c, flowTestRequestSchema)));
  });
  return r;
};
