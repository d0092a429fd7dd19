import * as z from "zod";
import { flag, requiredId } from "../../contracts/body-values";

export const TAG_NAME_MIN = 3;
/**
 * A live ticket's change is one transaction (100 items at most) that carries, per tag, its counter cells and its
 * list copy (docs/adr/0040: about 3 items per tag plus ~11; a sync adding every tag at once about 4 per tag): 20 tags keep both below the limit.
 * Every path that adds a tag refuses more with ERR_TOO_MANY_TAGS.
 */
export const MAX_TAGS_PER_TICKET = 20;
/** Zod messages are keys the tags page translates (spec 3 section 5: "Obrigatório", "Mensagem muito curta"). */
export const TAG_NAME_REQUIRED = "Required";
export const TAG_NAME_TOO_SHORT = "tagNameTooShort";

export const tagNameSchema = z.string().trim().min(1, TAG_NAME_REQUIRED).min(TAG_NAME_MIN, TAG_NAME_TOO_SHORT).max(50, "Too Long!");

/** POST /tags body. Unknown fields (companyId, userId ...) are dropped: the token decides. */
export const tagCreateSchema = z.object({
  name: tagNameSchema,
  color: z
    .string()
    .trim()
    .max(20)
    .regex(/^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|)$/, "invalid")
    .optional(),
  /** 0 or 1 as the spec stores it; booleans and "0"/"1" are read as the same */
  kanban: flag()
    .transform((v) => (v ? 1 : 0) as 0 | 1)
    .optional(),
});
/** PUT /tags/{id} body: any of the fields. */
export const tagUpdateSchema = tagCreateSchema.partial();

/** GET /tags/ query (the tags page); `companyId` alone (no pageNumber) asks for every tag of the caller's company. */
export const tagListQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional(),
  companyId: z.coerce.number().int().positive().optional(),
});

export const tagSyncSchema = z.object({
  ticketId: requiredId(),
  tags: z.array(z.object({ id: requiredId() }).passthrough()).max(1000),
});

export type TagInput = z.infer<typeof tagCreateSchema>;
export type Tag = { id: number; companyId: number; name: string; color: string; kanban: 0 | 1; ticketsCount?: number; userId?: number | null; createdAt: string; updatedAt: string };
