import { Hono } from "hono";
import { campaignSettingsSchema } from "@atende/shared/domain/campaign-settings/campaign-settings";
import type { Guards } from "../../platform/modules/feature-module";
import type { CampaignSettingsService } from "./campaign-settings.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { parseJson } from "../../platform/http/parse";

/** /campaign-settings (spec 3): company admins on a plan with campaigns. */
export const campaignSettingsRoutes = (campaignSettings: CampaignSettingsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth, requireAdmin, guards.plan("useCampaigns"));
  r.get("/", async (c) => c.json(await campaignSettings.list(c.get("auth"))));
  r.post("/", async (c) => c.json(await campaignSettings.save(c.get("auth"), await parseJson(c, campaignSettingsSchema))));
  return r;
};
