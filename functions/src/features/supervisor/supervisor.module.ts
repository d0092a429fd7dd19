import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createSupervisorBoard, type SupervisorBoard } from "./supervisor-board";
import { supervisorRoutes } from "./supervisor.routes";
import { createSupervisorService, type SupervisorReads, type SupervisorService } from "./supervisor.service";

/**
 * The supervisors' cockpit (issue 34, docs/adr/0101). `board` is built before the inbox (its ticket writes keep it:
 * `createSupervisorBoard(db)` handed to the inbox as its TicketBoard) and passed here.
 */
export const createSupervisorModule = (deps: { board: SupervisorBoard; reads: SupervisorReads; clock: () => Date; guards: Guards }): FeatureModule<SupervisorService> => {
  const service = createSupervisorService(deps);
  return { service, routes: [{ path: "/supervisor", app: supervisorRoutes(service, deps.guards) }] };
};
export { createSupervisorBoard };
