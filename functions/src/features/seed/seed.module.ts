import type { FeatureModule } from "../../platform/modules/feature-module";
import { createSeedService, type SeedService } from "./seed.service";

/** The first company, plan and operator (docs/adr/0024-feature-modules.md). */
export const createSeedModule = (deps: Parameters<typeof createSeedService>[0]): FeatureModule<SeedService> => ({ service: createSeedService(deps) });
