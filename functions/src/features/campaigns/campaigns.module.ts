import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createCampaignDispatch, type CampaignDispatchService } from "./campaign-dispatch.service";
import { createCampaignsRepository } from "./campaigns.repository";
import { campaignsRoutes } from "./campaigns.routes";
import { CAMPAIGN_STEP_JOB, createCampaignsService, type CampaignStepPayload, type CampaignsService } from "./campaigns.service";

/**
 * Campaigns (spec 3; docs/adr/0024-feature-modules.md): recipients from contact lists (valid numbers only),
 * pacing and variables from campaign settings; the dispatch is a job chain started by the minute tick.
 */
export const createCampaignsModule = (
  deps: Omit<Parameters<typeof createCampaignsService>[0], "campaigns" | "cursors"> & Omit<Parameters<typeof createCampaignDispatch>[0], "campaigns" | "service"> & { db: Db; guards: Guards },
): FeatureModule<CampaignsService> & { dispatch: CampaignDispatchService } => {
  const repository = createCampaignsRepository(deps.db);
  const service = createCampaignsService({ ...deps, campaigns: repository, cursors: createPageCursors(deps.db) });
  const dispatch = createCampaignDispatch({ ...deps, campaigns: repository, service });
  return {
    service,
    dispatch,
    routes: [{ path: "/campaigns", app: campaignsRoutes(service, deps.guards) }],
    // enqueued only by the campaigns feature, so its payload has that shape
    // after the inbox's handlers (module order): an answer to a confirmation request, a campaign message that failed after all
    inbound: { message: (e) => dispatch.onInboundMessage(e), "command.result": (e) => dispatch.onCommandResult(e) },
    // the awaiting confirmations a customer's message may answer, read with the inbox's first reads (docs/adr/0058)
    inboundEarly: { message: (e) => dispatch.readEarly(e) },
    jobs: { named: { [CAMPAIGN_STEP_JOB]: (companyId, payload) => dispatch.step(companyId, payload as CampaignStepPayload) } },
    tick: [{ name: "campaigns", run: async (now) => void (await dispatch.startDue(now)) }],
  };
};
