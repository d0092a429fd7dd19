import type { MiddlewareHandler } from "hono";
import type { FeatureModule } from "../../platform/modules/feature-module";
import { requireAuth } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { authRoutes } from "./auth.routes";
import { createAuthService, type AuthService } from "./auth.service";
import type { MfaService } from "../mfa/mfa.service";
import { mfaRoutes } from "./mfa.routes";

/**
 * The auth feature: login, refresh, logout, me, and the two-factor steps under /auth/mfa (docs/adr/0024, 0029). Also gives the composition
 * root the `auth` route guard (requireAuth over this service's authenticate), which it puts in the Guards object.
 */
export const createAuthModule = (
  deps: Parameters<typeof createAuthService>[0] & { mfa: MfaService; cookie: { secure: boolean; maxAgeSeconds: number } },
): FeatureModule<AuthService> & { guard: MiddlewareHandler<AppEnv> } => {
  const service = createAuthService(deps);
  const guard = requireAuth(service.authenticate);
  return {
    service,
    guard,
    routes: [
      { path: "/auth/mfa", app: mfaRoutes(service, deps.mfa, { auth: guard }, deps.cookie) },
      { path: "/auth", app: authRoutes(service, { auth: guard }, deps.cookie) },
    ],
  };
};
