import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { QueueOptionsRepository } from "./queue-options.repository";
import { queueOptionsRoutes } from "./queue-options.routes";
import { createQueueOptionsService, type QueueOptionsService } from "./queue-options.service";

/** The queue-options feature (the chatbot tree; docs/adr/0024-feature-modules.md). */
export const createQueueOptionsModule = (deps: Omit<Parameters<typeof createQueueOptionsService>[0], "options"> & { repository: QueueOptionsRepository; guards: Guards }): FeatureModule<QueueOptionsService> => {
  const service = createQueueOptionsService({ ...deps, options: deps.repository });
  return { service, routes: [{ path: "/queue-options", app: queueOptionsRoutes(service, deps.guards) }] };
};
