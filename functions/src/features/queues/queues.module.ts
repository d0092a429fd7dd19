import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { QueuesRepository } from "./queues.repository";
import { queuesRoutes } from "./queues.routes";
import { byOrder, createQueuesService, type QueuesService } from "./queues.service";

/**
 * What other features read of queues before the queues service exists (queue-options, prompts and integrations
 * are built first, because a queue's deletion cascades to them): the same answers as the service's reads.
 */
export const createQueueReads = (repository: QueuesRepository): Pick<QueuesService, "findById" | "listByCompany"> => ({
  findById: (companyId, id) => repository.findById(companyId, id),
  listByCompany: async (companyId) => (await repository.listByCompany(companyId)).sort(byOrder),
});

/** The queues feature (docs/adr/0024-feature-modules.md). */
export const createQueuesModule = (deps: Omit<Parameters<typeof createQueuesService>[0], "queues"> & { repository: QueuesRepository; guards: Guards }): FeatureModule<QueuesService> => {
  const service = createQueuesService({ ...deps, queues: deps.repository });
  return { service, routes: [{ path: "/queue", app: queuesRoutes(service, deps.guards) }] };
};
