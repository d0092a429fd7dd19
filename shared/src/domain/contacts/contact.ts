import * as z from "zod";
import { optionalText } from "../../contracts/body-values";
import { CONTACT_NUMBER_MAX, CONTACT_NUMBER_MIN, NAME_MAX, NAME_MIN } from "../../constants/business";

export const extraInfoSchema = z.object({ name: z.string().trim().min(1).max(100), value: z.string().max(1000) });

/** Contact form of spec 1 section 5 (messages are the spec's). */
export const contactFormSchema = z.object({
  name: z.string({ error: "Required" }).trim().min(NAME_MIN, "Too Short!").max(NAME_MAX, "Too Long!"),
  number: z.string({ error: "Required" }).trim().min(CONTACT_NUMBER_MIN, "Too Short!").max(CONTACT_NUMBER_MAX, "Too Long!"),
  email: optionalText(z.union([z.literal(""), z.string().trim().email("Invalid email")])).optional().default(""),
  extraInfo: z.array(extraInfoSchema).max(50).optional().default([]),
});
export type ContactFormInput = z.infer<typeof contactFormSchema>;

export const contactUpdateSchema = contactFormSchema.partial();

export type Contact = {
  id: number;
  companyId: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  /** WhatsApp LID of the person when known (one contact per person: number and LID resolve here) */
  lid: string | null;
  /**
   * A contact of another channel (docs/adr/0088): the channel ("telegram", "messenger", "instagram", "webchat") and
   * the user's id there, which is its identity (no phone number); absent for WhatsApp contacts.
   */
  channel?: string;
  channelUserId?: string;
  /** the user's handle on that channel when it has one (Telegram's @username) */
  channelUsername?: string;
  whatsappId: number | null;
  extraInfo: { name: string; value: string }[];
  createdAt: string;
  updatedAt: string;
};
