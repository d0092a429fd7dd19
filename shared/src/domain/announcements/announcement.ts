import * as z from "zod";
import { flag, optionalNum } from "../../contracts/body-values";

/** Spec 3: priority 1 high, 2 medium, 3 low (default). */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export const DEFAULT_ANNOUNCEMENT_PRIORITY: AnnouncementPriority = 3;

/** Spec 1: popover colours by priority (1 red, 2 orange, 3 grey). */
export const ANNOUNCEMENT_PRIORITY_COLORS: Record<AnnouncementPriority, string> = { 1: "#d32f2f", 2: "#ed6c02", 3: "#9e9e9e" };

/** Spec 3 section 5: the image attached to an announcement is .png, .jpg or .jpeg. */
export const ANNOUNCEMENT_IMAGE_EXTENSIONS = ["png", "jpg", "jpeg"] as const;
export const isAnnouncementImageName = (name: string) =>
  (ANNOUNCEMENT_IMAGE_EXTENSIONS as readonly string[]).includes(name.toLowerCase().split(".").pop() ?? "");

/** POST /announcements body (spec 3 section 5: title and text required). Unknown fields are dropped. */
export const announcementSchema = z.object({
  title: z.string().trim().min(1, "Required").max(200, "Too Long!"),
  text: z.string().trim().min(1, "Required").max(10_000, "Too Long!"),
  priority: optionalNum(z.union([z.literal(1), z.literal(2), z.literal(3)]).optional()),
  status: flag().optional(),
});
/** PUT /announcements/{id} body: any of the fields. */
export const announcementUpdateSchema = announcementSchema.partial();

export type AnnouncementInput = z.infer<typeof announcementSchema>;
