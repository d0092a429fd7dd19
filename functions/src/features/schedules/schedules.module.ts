import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createSchedulesJob } from "./schedules.job";
import { createSchedulesRepository } from "./schedules.repository";
import { schedulesRoutes } from "./schedules.routes";
import { createSchedulesService, type SchedulesService } from "./schedules.service";

/** Scheduled messages (spec 3): CRUD and the minute tick's sender (docs/adr/0024-feature-modules.md). */
export const createSchedulesModule = (
  deps: Omit<Parameters<typeof createSchedulesService>[0], "schedules" | "cursors"> &
    Omit<Parameters<typeof createSchedulesJob>[0], "schedules" | "service"> & { db: Db; guards: Guards },
): FeatureModule<SchedulesService> & { job: ReturnType<typeof createSchedulesJob> } => {
  const repository = createSchedulesRepository(deps.db);
  const service = createSchedulesService({ ...deps, schedules: repository, cursors: createPageCursors(deps.db) });
  const job = createSchedulesJob({ ...deps, schedules: repository, service });
  return {
    service,
    job,
    routes: [{ path: "/schedules", app: schedulesRoutes(service, deps.guards) }],
    tick: [{ name: "schedules", run: async (now) => void (await job.run(now)) }],
  };
};
