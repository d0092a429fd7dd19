import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createAnnouncementsRepository } from "./announcements.repository";
import { announcementsRoutes } from "./announcements.routes";
import { ANNOUNCEMENT_FANOUT_JOB, createAnnouncementsService, type AnnouncementsService, type FanOutPayload } from "./announcements.service";

/** Announcements: platform-wide; events reach every company through a paged fan-out job (docs/adr/0024-feature-modules.md). */
export const createAnnouncementsModule = (
  deps: Omit<Parameters<typeof createAnnouncementsService>[0], "announcements" | "cursors"> & { db: Db; guards: Guards },
): FeatureModule<AnnouncementsService> => {
  const service = createAnnouncementsService({ ...deps, announcements: createAnnouncementsRepository(deps.db), cursors: createPageCursors(deps.db) });
  return {
    service,
    routes: [{ path: "/announcements", app: announcementsRoutes(service, deps.guards) }],
    // our own job (enqueued by the announcements service), so its payload has that shape
    jobs: { named: { [ANNOUNCEMENT_FANOUT_JOB]: (companyId, payload) => service.fanOut(companyId, payload as FanOutPayload) } },
  };
};
