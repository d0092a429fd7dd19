import * as z from "zod";

/** `?pageNumber=` of every paged list: 1-based, at most 10 000, 1 when absent (spec: 20 or 40 rows a page). */
export const pageNumberParam = z.coerce.number().int().min(1).max(10_000).optional().default(1);

/** `?searchParam=` of the searchable lists: trimmed, at most 100 characters, "" when absent. */
export const searchParamParam = z.string().trim().max(100).optional().default("");

/** The paging query of a list without search. */
export const pageQuerySchema = z.object({ pageNumber: pageNumberParam });

/** The paging query of a searchable list (extend it for a list's own filters). */
export const searchPageQuerySchema = z.object({ searchParam: searchParamParam, pageNumber: pageNumberParam });

/**
 * Page `pageNumber` (1-based) of a list already read whole (a bounded partition: a company's users, the operator's
 * companies): the rows, the total and whether a later page has rows. Cursor-paged sources use
 * functions' `pageByNumber` (platform/db/page-cursors.ts) instead.
 */
export const slicePage = <T>(all: readonly T[], pageNumber: number, pageSize: number): { page: T[]; count: number; hasMore: boolean } => ({
  page: all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize),
  count: all.length,
  hasMore: pageNumber * pageSize < all.length,
});
