import type { FeatureModule } from "../../platform/modules/feature-module";
import { signupRoutes } from "./signup.routes";
import { createSignupService, type SignupService } from "./signup.service";

/** Public sign-up, POST /companies/cadastro (mounted before the companies routes; docs/adr/0024-feature-modules.md). */
export const createSignupModule = (deps: Parameters<typeof createSignupService>[0]): FeatureModule<SignupService> => {
  const service = createSignupService(deps);
  return { service, routes: [{ path: "/companies", app: signupRoutes(service) }] };
};
