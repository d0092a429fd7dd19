import * as z from "zod";
import { optionalText } from "../../contracts/body-values";
import { externalTemplateSchema } from "../cloud-api/message-templates";

/** Messages sent through the external API per connection token and minute (SERVER-RULES: rate-limited per token). */
export const EXTERNAL_API_MESSAGES_PER_MINUTE = 60;

/**
 * POST /api/messages/send: the number without mask or symbols (country code, area code, number), and the text.
 * With media (multipart `medias`) the body is the caption of the first file and may be empty.
 */
export const externalMessageSchema = z.object({
  number: z
    .string()
    .trim()
    .regex(/^\d{10,15}$/),
  body: optionalText(z.string().max(4096)).optional().default(""),
  /**
   * Cloud API connections: an approved message template instead of the text (JSON only; the only way to write to
   * someone whose 24-hour window is closed), its variables as `values` or as Meta's `components`. Refused on QR
   * connections with ERR_CHANNEL_UNSUPPORTED.
   */
  template: externalTemplateSchema.optional(),
});
export type ExternalMessageInput = z.infer<typeof externalMessageSchema>;
