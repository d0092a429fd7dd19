import * as z from "zod";
import { flag } from "../../contracts/body-values";

/** The company's website chat (`provider: "webchat"`): who may embed it and how it looks. No secret of its own. */
export const webchatFieldsSchema = z.object({
  provider: z.literal("webchat"),
  /** exact origins (scheme://host[:port]); blank lines of the form's text box are dropped (docs/adr/0092) */
  allowedOrigins: z
    .preprocess(
      (v) => (Array.isArray(v) ? v.map((s) => (typeof s === "string" ? s.trim().replace(/\/+$/, "") : s)).filter((s) => s !== "") : v),
      z.array(
        z
          .string()
          .url()
          .max(300)
          .refine((s) => /^https?:\/\/[^/?#]+$/i.test(s), "Origin: scheme://host[:port]"),
      ),
    )
    .pipe(z.array(z.string()).max(20))
    .default([]),
  greeting: z.string().max(1000).default(""),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/).default("#2576d2"),
  askName: flag().default(true),
  askEmail: flag().default(false),
  askPhone: flag().default(false),
});
export type WebchatFields = z.infer<typeof webchatFieldsSchema>;
