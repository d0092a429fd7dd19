import { z } from "zod";

export const TICKET_STATUSES = ["pending", "open", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

const idOrNull = z.union([z.number().int().positive(), z.null()]);

/** POST /tickets (new-ticket dialog). */
export const ticketCreateSchema = z.object({
  contactId: z.number().int().positive(),
  queueId: idOrNull.optional(),
  whatsappId: idOrNull.optional(),
  userId: idOrNull.optional(),
  status: z.enum(TICKET_STATUSES).optional().default("open"),
});
export type TicketCreateInput = z.infer<typeof ticketCreateSchema>;

/** PUT /tickets/{id}: accept, resolve, return, reopen, transfer (spec 1 section 4). */
export const ticketUpdateSchema = z
  .object({
    status: z.enum(TICKET_STATUSES).optional(),
    userId: idOrNull.optional(),
    queueId: idOrNull.optional(),
    whatsappId: idOrNull.optional(),
    useIntegration: z.boolean().optional(),
    promptId: idOrNull.optional(),
    integrationId: idOrNull.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "Required" });
export type TicketUpdateInput = z.infer<typeof ticketUpdateSchema>;

export const closeAllSchema = z.object({
  status: z.enum(["open", "pending"]),
  selectedQueueIds: z.array(z.number().int().positive()).max(100).optional().default([]),
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
    if (ids.some((n) => !Number.isInteger(n) || n < 0)) {
      ctx.addIssue({ code: "custom", message: "Invalid list" });
      return z.NEVER;
    }
    return ids.slice(0, 50);
  });
const flag = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true");

/** GET /tickets query string. */
export const ticketListQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  tags: csvOrJsonIds,
  users: csvOrJsonIds,
  queueIds: csvOrJsonIds,
  status: z.enum(TICKET_STATUSES).optional(),
  showAll: flag,
  withUnreadMessages: flag,
  date: z.string().max(40).optional(),
  updatedAt: z.string().max(40).optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;
