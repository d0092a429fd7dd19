import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import { createChatsRepository } from "./chats.repository";
import { chatsRoutes } from "./chats.routes";
import { createChatsService, type ChatsService } from "./chats.service";

/** The chats feature (docs/adr/0024-feature-modules.md). */
export const createChatsModule = (deps: Omit<Parameters<typeof createChatsService>[0], "chats" | "cursors"> & { db: Db; guards: Guards }): FeatureModule<ChatsService> => {
  const service = createChatsService({ ...deps, chats: createChatsRepository(deps.db), cursors: createPageCursors(deps.db) });
  return { service, routes: [{ path: "/chats", app: chatsRoutes(service, deps.guards) }] };
};
