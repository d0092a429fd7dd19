import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { PromptsRepository } from "./prompts.repository";
import { promptsRoutes } from "./prompts.routes";
import { createPromptsService, type PromptsService } from "./prompts.service";

/** Whether a company has the prompt (a read other features are given at construction: queues, connections). */
export const createPromptLookup = (repository: PromptsRepository) => async (companyId: number, id: number) => (await repository.findById(companyId, id)) !== null;

/** The prompts feature (docs/adr/0024-feature-modules.md). */
export const createPromptsModule = (deps: Omit<Parameters<typeof createPromptsService>[0], "prompts"> & { repository: PromptsRepository; guards: Guards }): FeatureModule<PromptsService> => {
  const service = createPromptsService({ ...deps, prompts: deps.repository });
  return { service, routes: [{ path: "/prompt", app: promptsRoutes(service, deps.guards) }] };
};
