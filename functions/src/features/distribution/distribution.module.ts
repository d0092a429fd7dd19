import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { DISTRIBUTION_JOB, type DistributionTrigger } from "./distribution-trigger";
import { distributionRoutes } from "./distribution.routes";
import { createDistributionService, type DistributionService, type RunHint } from "./distribution.service";

/**
 * Automatic distribution (issue 13 items 2-3, docs/adr/0032). The trigger (`createDistributionTrigger`) is built
 * before the inbox and passed to it as a ticket-change listener; this module, built after the inbox, runs the
 * `distribution.run` job the trigger queues and the minute tick.
 */
export const createDistributionModule = (
  deps: Omit<Parameters<typeof createDistributionService>[0], "requestRun"> & { trigger: DistributionTrigger; guards: Guards },
): FeatureModule<DistributionService> => {
  const service = createDistributionService({ ...deps, requestRun: deps.trigger.request });
  return {
    service,
    routes: [{ path: "/distribution", app: distributionRoutes(service, deps.guards) }],
    jobs: { named: { [DISTRIBUTION_JOB]: async (companyId, payload) => void (await service.run(companyId, payload as RunHint)) } },
    tick: [{ name: "distribution", run: () => service.tick() }],
  };
};
