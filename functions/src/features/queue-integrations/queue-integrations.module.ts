import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { QueueIntegrationsRepository } from "./queue-integrations.repository";
import { queueIntegrationsRoutes } from "./queue-integrations.routes";
import { createQueueIntegrationsService, type QueueIntegrationsService } from "./queue-integrations.service";

/** Whether a company has the integration (a read other features are given at construction: queues, connections). */
export const createIntegrationLookup = (repository: QueueIntegrationsRepository) => async (companyId: number, id: number) => (await repository.findById(companyId, id)) !== null;

/** The queue-integrations feature (docs/adr/0024-feature-modules.md). */
export const createQueueIntegrationsModule = (
  deps: Omit<Parameters<typeof createQueueIntegrationsService>[0], "integrations" | "cursors"> & { db: Db; repository: QueueIntegrationsRepository; guards: Guards },
): FeatureModule<QueueIntegrationsService> => {
  const service = createQueueIntegrationsService({ ...deps, integrations: deps.repository, cursors: createPageCursors(deps.db) });
  return { service, routes: [{ path: "/queueIntegration", app: queueIntegrationsRoutes(service, deps.guards) }] };
};
