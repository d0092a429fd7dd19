import type { MiddlewareHandler } from "hono";
import type { FeatureModule } from "../../platform/modules/feature-module";
import { requireAuth } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { authRoutes } from "./auth.routes";
import { createAuthService, type AuthService } from "./auth.service";

/**
 * The auth feature: login, refresh, logout, me (docs/adr/0024-feature-modules.md). Also gives the composition
 * root the `auth` route guard (requireAuth over this service's authenticate), which it puts in the Guards object.
 */
export const createAuthModule = (
  deps: Parameters<typeof createAuthService>[0] & { cookie: { secure: boolean; maxAgeSeconds: number } },
): FeatureModule<AuthService> & { guard: MiddlewareHandler<AppEnv> } => {
  const service = createAuthService(deps);
  const guard = requireAuth(service.authenticate);
  return { service, guard, routes: [{ path: "/auth", app: authRoutes(service, { auth: guard }, deps.cookie) }] };
};
