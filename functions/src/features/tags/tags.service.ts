import type { Tag } from "@atende/shared/domain/tags/tag";
import { AppError } from "../../platform/errors";
import type { AuthContext } from "../auth/auth.service";
import type { RealtimeService } from "../realtime/realtime.service";
import type { TagsRepository } from "./tags.repository";

const DEFAULT_COLOR = "#A4CCCC";

export const createTagsService = (deps: { tags: TagsRepository; realtime: RealtimeService; clock: () => Date }) => {
  const { tags, realtime, clock } = deps;
  return {
    async list(auth: AuthContext): Promise<Tag[]> {
      return (await tags.listByCompany(auth.companyId)).sort((a, b) => a.name.localeCompare(b.name));
    },
    async create(auth: AuthContext, input: { name: string; color?: string; kanban?: 0 | 1 }): Promise<Tag> {
      const tag = await tags.create(auth.companyId, { name: input.name, color: input.color || DEFAULT_COLOR, kanban: input.kanban ?? 0 }, clock());
      if (!tag) throw new AppError("ERR_DUPLICATED_NAME");
      await realtime.publish(auth.companyId, "tag", { action: "create", tag });
      return tag;
    },
  };
};
export type TagsService = ReturnType<typeof createTagsService>;
