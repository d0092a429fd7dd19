import type { Db } from "../../platform/db/client";
import type { FeatureModule } from "../../platform/modules/feature-module";
import { signupRoutes } from "./signup.routes";
import { createSignupService, type SignupService } from "./signup.service";
import { createSignupThrottleRepository } from "./signup-throttle.repository";

/** Public sign-up, POST /companies/cadastro (mounted before the companies routes; docs/adr/0024-feature-modules.md). */
export const createSignupModule = (deps: Omit<Parameters<typeof createSignupService>[0], "throttle"> & { db: Db }): FeatureModule<SignupService> => {
  const service = createSignupService({ ...deps, throttle: createSignupThrottleRepository(deps.db) });
  return { service, routes: [{ path: "/companies", app: signupRoutes(service) }] };
};
