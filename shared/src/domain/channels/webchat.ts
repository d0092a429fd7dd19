import * as z from "zod";
import { flag } from "../../contracts/body-values";

/** The company's website chat (`provider: "webchat"`): who may embed it and how it looks. No secret of its own. */
export const webchatFieldsSchema = z.object({
  provider: z.literal("webchat"),
  allowedOrigins: z.array(z.string().trim().url().max(300)).max(20).default([]),
  greeting: z.string().max(1000).default(""),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/).default("#2576d2"),
  askName: flag().default(true),
  askEmail: flag().default(false),
  askPhone: flag().default(false),
});
export type WebchatFields = z.infer<typeof webchatFieldsSchema>;
