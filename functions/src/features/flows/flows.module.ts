import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { MediaStore } from "../../platform/storage/media-store.port";
import { createFlowMedia } from "./flow-media";
import type { FlowsRepository } from "./flows.repository";
import { flowsRoutes } from "./flows.routes";
import { createFlowsService, type FlowsService } from "./flows.service";

/** Whether a company has the flow with a published version (queues and connections may only point at one). */
export const createFlowLookup = (repository: FlowsRepository) => async (companyId: number, id: number) => {
  const f = await repository.findById(companyId, id);
  return f !== null && !f.archivedAt && f.publishedVersion !== null;
};

/** The flows feature (issue 30, docs/adr/0083). */
export const createFlowsModule = (deps: Omit<Parameters<typeof createFlowsService>[0], "flows"> & { repository: FlowsRepository; media: Pick<MediaStore, "put">; guards: Guards }): FeatureModule<FlowsService> => {
  const service = createFlowsService({ ...deps, flows: deps.repository });
  return { service, routes: [{ path: "/flows", app: flowsRoutes(service, createFlowMedia(deps.media), deps.guards) }] };
};
