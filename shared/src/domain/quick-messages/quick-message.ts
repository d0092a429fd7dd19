import { z } from "zod";

/** POST /quick-messages body (spec 3 section 5: shortcode required). Unknown fields (companyId, userId...) are dropped. */
export const quickMessageSchema = z.object({
  shortcode: z.string().trim().min(1, "Required").max(100, "Too Long!"),
  message: z.string().max(10_000).optional(),
  geral: z.boolean().optional(),
  status: z.boolean().optional(),
});
/** PUT /quick-messages/{id} body: any of the fields. */
export const quickMessageUpdateSchema = quickMessageSchema.partial();

export type QuickMessageInput = z.infer<typeof quickMessageSchema>;
