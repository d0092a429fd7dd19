import type { Tag } from "../../domain/tags/tag";

/** A tag as the API answers it; `ticketsCount` counts the tickets carrying it (open or closed). */
export type TagView = Omit<Tag, "ticketsCount"> & { ticketsCount: number };
/** GET /tags/list */
export type TagListResponse = TagView[];
/** GET /tags/ (searchParam, pageNumber) */
export type TagPageResponse = { tags: TagView[]; count: number; hasMore: boolean };
/** GET /tags/kanban: the company's kanban tags (kanban = 1), by name. */
export type TagKanbanResponse = { lista: TagView[] };
/** `company-{id}-tag` realtime event data. */
export type TagEventData = { action: "create" | "update"; tag: TagView } | { action: "delete"; tagId: number };
