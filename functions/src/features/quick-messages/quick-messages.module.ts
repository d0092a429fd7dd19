import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createQuickMessagesRepository } from "./quick-messages.repository";
import { quickMessagesRoutes } from "./quick-messages.routes";
import { createQuickMessagesService, type QuickMessagesService } from "./quick-messages.service";

/** The quick-messages feature (docs/adr/0024-feature-modules.md). */
export const createQuickMessagesModule = (deps: Omit<Parameters<typeof createQuickMessagesService>[0], "quickMessages" | "cursors"> & { db: Db; guards: Guards }): FeatureModule<QuickMessagesService> => {
  const service = createQuickMessagesService({ ...deps, quickMessages: createQuickMessagesRepository(deps.db), cursors: createPageCursors(deps.db) });
  return { service, routes: [{ path: "/quick-messages", app: quickMessagesRoutes(service, deps.guards) }] };
};
