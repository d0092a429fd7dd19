import type { FeatureModule } from "../../platform/modules/feature-module";
import { passwordResetRoutes } from "./password-reset.routes";
import { createPasswordResetService, type PasswordResetService } from "./password-reset.service";

/** Public /forgetpassword, /resetpasswords (docs/adr/0024-feature-modules.md). */
export const createPasswordResetModule = (deps: Parameters<typeof createPasswordResetService>[0]): FeatureModule<PasswordResetService> => {
  const service = createPasswordResetService(deps);
  return { service, routes: [{ path: "/", app: passwordResetRoutes(service) }] };
};
