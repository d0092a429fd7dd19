import type { Metrics } from "../../platform/metrics";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { subscriptionRoutes } from "./subscription.routes";
import { createSubscriptionService, type SubscriptionService } from "./subscription.service";

/** Pix checkout and the provider's webhook (docs/billing.md, docs/adr/0024-feature-modules.md). */
export const createSubscriptionModule = (deps: Parameters<typeof createSubscriptionService>[0] & { guards: Guards; metrics: Pick<Metrics, "count"> }): FeatureModule<SubscriptionService> => {
  const service = createSubscriptionService(deps);
  // POST /subscription/webhook is public (shared secret + provider check)
  return { service, routes: [{ path: "/subscription", app: subscriptionRoutes(service, deps.guards, deps.metrics) }] };
};
