import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { UsersRepository } from "./users.repository";
import { usersRoutes } from "./users.routes";
import { createUsersService, type UsersService } from "./users.service";

/**
 * Company deletion: every user and their login goes. Built from the repository before the users service, because
 * the companies service (which the users service reads) runs it before a company goes (docs/adr/0024-feature-modules.md).
 */
export const createUsersCleanup = (repository: UsersRepository) => async (companyId: number) => {
  for (const user of await repository.listByCompany(companyId)) await repository.remove(user);
};

/** Users (docs/adr/0024-feature-modules.md). */
export const createUsersModule = (deps: Omit<Parameters<typeof createUsersService>[0], "users"> & { repository: UsersRepository; guards: Guards }): FeatureModule<UsersService> => {
  const service = createUsersService({ ...deps, users: deps.repository });
  return { service, routes: [{ path: "/users", app: usersRoutes(service, deps.guards) }] };
};
