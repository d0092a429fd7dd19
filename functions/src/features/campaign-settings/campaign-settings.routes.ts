import { Hono } from "hono";
import { campaignSettingsSchema } from "@atende/shared/domain/campaign-settings/campaign-settings";
import type { Container } from "../../app/container";
import { requireAdmin, requireAuth, requirePlan } from "../../platform/http/middleware";
import type { AppEnv } from "../auth/app-env";
import { parseJson } from "../../platform/http/parse";

/** /campaign-settings (spec 3): company admins on a plan with campaigns. */
export const campaignSettingsRoutes = (container: Container) => {
  const svc = () => container.services.campaignSettings;
  const r = new Hono<AppEnv>();
  r.use("*", requireAuth(container.services.auth.authenticate), requireAdmin, requirePlan(container.services.companies.assertPlanAllows, "useCampaigns"));
  r.get("/", async (c) => c.json(await svc().list(c.get("auth"))));
  r.post("/", async (c) => c.json(await svc().save(c.get("auth"), await parseJson(c, campaignSettingsSchema))));
  return r;
};
