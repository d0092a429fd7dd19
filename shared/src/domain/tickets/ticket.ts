import * as z from "zod";
import { pageNumberParam, searchParamParam } from "../../contracts/http/paging";
import { flag, idList, optionalId, requiredId } from "../../contracts/body-values";

export const TICKET_STATUSES = ["pending", "open", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** POST /tickets (new-ticket dialog). */
export const ticketCreateSchema = z.object({
  contactId: requiredId(),
  queueId: optionalId(),
  whatsappId: optionalId(),
  userId: optionalId(),
  status: z.enum(TICKET_STATUSES).optional().default("open"),
});
export type TicketCreateInput = z.infer<typeof ticketCreateSchema>;

/** PUT /tickets/{id}: accept, resolve, return, reopen, transfer (spec 1 section 4). */
export const ticketUpdateSchema = z
  .object({
    status: z.enum(TICKET_STATUSES).optional(),
    userId: optionalId(),
    queueId: optionalId(),
    whatsappId: optionalId(),
    useIntegration: flag().optional(),
    promptId: optionalId(),
    integrationId: optionalId(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "Required" });
export type TicketUpdateInput = z.infer<typeof ticketUpdateSchema>;

export const closeAllSchema = z.object({
  status: z.enum(["open", "pending"]),
  selectedQueueIds: idList(100).optional().default([]),
});

const csvOrJsonIds = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (!raw) return [] as number[];
    let values: unknown;
    try {
      values = raw.trim().startsWith("[") ? JSON.parse(raw) : raw.split(",");
    } catch {
      ctx.addIssue({ code: "custom", message: "Invalid list" });
      return z.NEVER;
    }
    const ids = (Array.isArray(values) ? values : [values]).map((v) => Number(v));
    if (ids.some((n) => !Number.isSafeInteger(n) || n < 0)) {
      ctx.addIssue({ code: "custom", message: "Invalid list" });
      return z.NEVER;
    }
    return ids.slice(0, 50);
  });
const queryFlag = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true");

/** GET /tickets query string. */
export const ticketListQuerySchema = z.object({
  searchParam: searchParamParam,
  pageNumber: pageNumberParam,
  tags: csvOrJsonIds,
  users: csvOrJsonIds,
  queueIds: csvOrJsonIds,
  status: z.enum(TICKET_STATUSES).optional(),
  showAll: queryFlag,
  withUnreadMessages: queryFlag,
  date: z.string().max(40).optional(),
  updatedAt: z.string().max(40).optional(),
  /** the `nextPageToken` of the previous page's answer (docs/adr/0040): opens page `pageNumber` in fewer reads; optional */
  pageToken: z.string().max(512).optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;
