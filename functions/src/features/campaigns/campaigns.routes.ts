import { Hono } from "hono";
import { pageQuerySchema } from "@atende/shared/contracts/http/paging";
import { campaignSchema } from "@atende/shared/domain/campaigns/campaign";
import type { Guards } from "../../platform/modules/feature-module";
import type { CampaignsService } from "./campaigns.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";

const listQuery = pageQuerySchema;

/** Campaigns (spec 3): admins only, and every call needs the plan's useCampaigns. */
export const campaignsRoutes = (campaigns: CampaignsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth, requireAdmin, guards.plan("useCampaigns"));
  r.get("/", async (c) => c.json(await campaigns.list(c.get("auth"), parseQuery(c, listQuery))));
  r.get("/:id", async (c) => c.json(await campaigns.get(c.get("auth"), idParam(c, "id"))));
  r.post("/", async (c) => c.json(await campaigns.create(c.get("auth"), await parseJson(c, campaignSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id");
    return c.json(await campaigns.update(c.get("auth"), id, await parseJson(c, campaignSchema)));
  });
  r.delete("/:id", async (c) => {
    await campaigns.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Campaign deleted" });
  });
  r.post("/:id/cancel", async (c) => c.json(await campaigns.cancel(c.get("auth"), idParam(c, "id"))));
  r.post("/:id/restart", async (c) => c.json(await campaigns.restart(c.get("auth"), idParam(c, "id"))));
  r.post("/:id/media-upload", async (c) => {
    const id = idParam(c, "id");
    return c.json(await campaigns.attachMedia(c.get("auth"), id, await uploadedFile(c)));
  });
  r.delete("/:id/media-upload", async (c) => c.json(await campaigns.removeMedia(c.get("auth"), idParam(c, "id"))));
  return r;
};
