import type { Tag } from "../../domain/tags/tag";

export type TagView = Tag;
/** GET /tags/list */
export type TagListResponse = TagView[];
