import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createFileListsRepository } from "./file-lists.repository";
import { fileListsRoutes } from "./file-lists.routes";
import { createFileListsService, type FileListsService } from "./file-lists.service";

/** The files feature (docs/adr/0024-feature-modules.md). */
export const createFileListsModule = (deps: Omit<Parameters<typeof createFileListsService>[0], "fileLists" | "cursors"> & { db: Db; guards: Guards }): FeatureModule<FileListsService> => {
  const service = createFileListsService({ ...deps, fileLists: createFileListsRepository(deps.db), cursors: createPageCursors(deps.db) });
  return { service, routes: [{ path: "/files", app: fileListsRoutes(service, deps.guards) }] };
};
