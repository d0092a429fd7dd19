import * as z from "zod";
import { flag, idList } from "../body-values";
import { TICKET_STATUSES, type TicketStatus } from "../../domain/tickets/ticket";

/**
 * GET /ticket/reports and the report's exports (issue 13 item 6; docs/adr/0034-reports.md).
 * Values are accepted as the spec's clients send them (ADR 0011): lists as arrays, "[1,2]" or "1,2"; "" and null are
 * "not given"; flags 0/1/true/false.
 */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const none = z.literal(["", null]).transform(() => undefined);
const day = z.union([none, z.string().regex(DAY).refine((v) => !Number.isNaN(Date.parse(v)), "Invalid date")]).optional();
const ids = z.union([none.transform(() => [] as number[]), idList(200)]).optional().transform((v) => v ?? []);
const text = z.union([none.transform(() => ""), z.string().trim().max(100)]).optional().transform((v) => v ?? "");
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) => z.union([none, z.enum(values)]).optional();
const positive = (max: number, fallback: number) =>
  z
    .union([none, z.number().int(), z.string().regex(/^\d{1,6}$/).transform(Number)])
    .optional()
    .transform((v) => v ?? fallback)
    .pipe(z.number().int().min(1).max(max));

export const REPORT_PAGE_SIZES = [10, 20, 50, 100] as const;
export const REPORT_MAX_PAGE_SIZE = 200;
/** The longest period a report or an export covers (days). */
export const REPORT_MAX_RANGE_DAYS = 366;
/** Up to this many rows an export is written within the request; above it, as a background job. */
export const REPORT_INLINE_EXPORT_ROWS = 2_000;
export const REPORT_SLA_RESULTS = ["met", "breached"] as const;
export const REPORT_RATING_FILTERS = ["1", "2", "3", "rated", "unrated"] as const;
export const REPORT_EXPORT_FORMATS = ["csv", "xlsx"] as const;

/** The filters of the report (query string of GET /ticket/reports, JSON body of POST /reports/exports). */
export const reportFiltersSchema = z.object({
  /** the period (company time zone, both days included); without dateFrom: the current month */
  dateFrom: day,
  dateTo: day,
  queueIds: ids,
  whatsappIds: ids,
  userIds: ids,
  tags: ids,
  status: optionalEnum(TICKET_STATUSES),
  /** 1..3, any rating, or no rating */
  rating: z.union([none, z.enum(REPORT_RATING_FILTERS), z.number().int().min(1).max(3).transform((n) => String(n) as "1" | "2" | "3")]).optional(),
  /** cycles with every SLA clock met, or with at least one breached */
  sla: optionalEnum(REPORT_SLA_RESULTS),
  /** protocol, ticket id, contact name or number (part of) */
  searchParam: text,
  /** cycles closed without an attendant (abandoned) only */
  abandoned: z.union([none, flag()]).optional(),
});
export type ReportFilters = z.infer<typeof reportFiltersSchema>;

export const reportQuerySchema = reportFiltersSchema.extend({
  pageNumber: positive(10_000, 1),
  pageSize: positive(REPORT_MAX_PAGE_SIZE, 20),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

export const reportExportSchema = reportFiltersSchema.extend({ format: z.enum(REPORT_EXPORT_FORMATS), locale: z.enum(["pt", "en", "es"]).optional() });
export type ReportExportInput = z.infer<typeof reportExportSchema>;

export type SlaResult = "met" | "breached" | "running" | null;
type Ref = { id: number; name: string };

/** One attention cycle as the report shows it. Durations in seconds (null: did not happen). */
export type ReportRow = {
  ticketId: number;
  protocol: string | null;
  status: TicketStatus;
  contact: { id: number; name: string; number: string } | null;
  whatsapp: Ref | null;
  queue: Ref | null;
  /** the queues the customer went through, in order */
  queuePath: Ref[];
  /** the attendant who owns (or closed) it */
  user: Ref | null;
  /** every attendant who owned it during the cycle, in order */
  users: Ref[];
  queuedAt: string;
  acceptedAt: string | null;
  firstResponseAt: string | null;
  finishedAt: string | null;
  waitSeconds: number | null;
  firstResponseSeconds: number | null;
  handlingSeconds: number | null;
  abandoned: boolean;
  rating: number | null;
  ratingRequested: boolean;
  sla: { firstResponse: SlaResult; nextResponse: SlaResult; resolution: SlaResult; overall: SlaResult };
  tags: (Ref & { color: string })[];
};

/** Figures of the whole filtered set (minutes; the dashboard shows the same ones for the same period). */
export type ReportSummary = {
  total: number;
  pending: number;
  open: number;
  closed: number;
  abandoned: number;
  avgWaitTime: number;
  avgFirstResponseTime: number;
  avgSupportTime: number;
  slaMet: number;
  slaBreached: number;
};

export type ReportResponse = { tickets: ReportRow[]; totalTickets: number; summary: ReportSummary };

/** CSAT: satisfied + very satisfied over answers; response rate: answers over rating requests sent. */
export type CsatFigures = { requests: number; answers: number; unsatisfied: number; satisfied: number; verySatisfied: number; score: number | null; responseRate: number | null };
export type CsatResponse = { total: CsatFigures; byUser: (CsatFigures & { id: number | null; name: string })[]; byQueue: (CsatFigures & { id: number | null; name: string })[] };

export type ReportExportStatus = "running" | "done" | "failed";
/** A report export (inline or background); progress in percent. */
export type ReportExportView = {
  id: string;
  format: (typeof REPORT_EXPORT_FORMATS)[number];
  status: ReportExportStatus;
  progress: number;
  rows: number;
  downloadUrl: string | null;
  expiresAt: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
};
/** POST /reports/exports: the file itself when small (Content-Disposition), else `{ job }` (202). */
export type ReportExportAccepted = { job: ReportExportView };
