import * as z from "zod";
import { flag } from "../body-values";

/**
 * Contacts merged, never duplicated (issue 34 point 5; docs/adr/0103-contact-merge.md).
 * GET /contacts/duplicates: groups of contacts that look like one person, and why.
 */
export const DUPLICATE_REASONS = ["number", "email", "lid", "name"] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];
export type DuplicateContact = { id: number; name: string; number: string; email: string };
export type DuplicateGroup = { reason: DuplicateReason; contacts: DuplicateContact[] };
/** `truncated`: the company has more contacts than one answer reads (CONTACT_DUPLICATES_MAX_READ); groups are of those read. */
export type ContactDuplicatesResponse = { groups: DuplicateGroup[]; truncated: boolean };

/** POST /contacts/{id}/merge */
export const contactMergeSchema = z.object({ intoId: z.coerce.number().int().positive(), dryRun: flag().optional() });
export type ContactMergeInput = z.infer<typeof contactMergeSchema>;

/** What moved (or, with dryRun, would move) from the merged contact to `intoId`. */
export type ContactMergeCounts = {
  tickets: number;
  messages: number;
  notes: number;
  /** tag links of the moved tickets */
  tags: number;
  /** extra fields the kept contact did not have */
  extraInfo: number;
  schedules: number;
  /** contact-list entries (memberships by number: campaigns reach the kept contact through the moved number) */
  listMemberships: number;
  optOuts: number;
  /** LGPD records (export/erasure jobs) */
  lgpdRecords: number;
  /** numbers, LID and channel ids (Telegram, Messenger, Instagram, website visitors) */
  identities: number;
};
export type ContactMergeResponse = { dryRun: boolean; fromId: number; intoId: number; counts: ContactMergeCounts };
/** ERR_MERGE_OPEN_TICKETS data: the merged contact's tickets to close first (the kept contact's open ticket stays). */
export type ContactMergeConflict = { close: { ticketId: number; whatsappId: number | null; keptTicketId: number }[] };

/** GET /contacts/{id}/same-contact: known contacts a website visitor's phone or e-mail matches (merge on confirmation). */
export type SameContactCandidate = DuplicateContact & { reason: "number" | "email" };
export type SameContactResponse = { candidates: SameContactCandidate[] };
