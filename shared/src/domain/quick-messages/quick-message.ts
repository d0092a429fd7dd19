import * as z from "zod";
import { flag, optionalText } from "../../contracts/body-values";

/** POST /quick-messages body (spec 3 section 5: shortcode required). Unknown fields (companyId, userId...) are dropped. */
export const quickMessageSchema = z.object({
  shortcode: z.string().trim().min(1, "Required").max(100, "Too Long!"),
  message: optionalText(z.string().max(10_000)).optional(),
  geral: flag().optional(),
  status: flag().optional(),
});
/** PUT /quick-messages/{id} body: any of the fields. */
export const quickMessageUpdateSchema = quickMessageSchema.partial();

export type QuickMessageInput = z.infer<typeof quickMessageSchema>;
