import * as z from "zod";
import { AUDIT_ACTIONS, AUDIT_RECORD_KINDS, type AuditEntry } from "../../domain/audit/audit";
import { pageNumberParam } from "./paging";

/** "" in a query string means "no filter". */
const blank = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** An instant (ISO with offset) or a day (YYYY-MM-DD, UTC): `from` a day's start, `to` its end. */
const instant = (edge: "start" | "end") =>
  blank(
    z.union([z.iso.datetime({ offset: true }), z.string().regex(DAY)]).transform((v) => {
      if (!DAY.test(v)) return new Date(v).toISOString();
      return edge === "start" ? `${v}T00:00:00.000Z` : `${v}T23:59:59.999Z`;
    }),
  );

/**
 * GET /audit-logs (and /audit-logs/export): filters by period, user, action and record, paged by the shared
 * `pageNumber`. `companyId` is the operator's filter; an admin's list is always their own company.
 */
export const auditLogQuerySchema = z
  .object({
    pageNumber: pageNumberParam,
    from: instant("start"),
    to: instant("end"),
    userId: blank(z.coerce.number().int().positive()),
    action: blank(z.enum(AUDIT_ACTIONS)),
    recordKind: blank(z.enum(AUDIT_RECORD_KINDS)),
    recordId: blank(z.string().trim().min(1).max(64)),
    companyId: blank(z.coerce.number().int().positive()),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from after to", path: ["from"] });
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

/** GET /audit-logs answer: newest first. */
export type AuditLogListResponse = { logs: AuditEntry[]; hasMore: boolean };

/** Rows a page of the audit list holds. */
export const AUDIT_PAGE_SIZE = 40;
/** Rows one CSV export holds at most (narrow the period for more). */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;
