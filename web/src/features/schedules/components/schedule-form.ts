import { format } from "date-fns";
import { scheduleSchema } from "@atende/shared/domain/schedules/schedule";

/** The dialog's fields as typed: `sendAt` is a `datetime-local` value in the browser's zone ("2026-11-22T15:30"). */
export type ScheduleDraft = { contactId: number | null; body: string; sendAt: string; whatsappId: number | null };
export type ScheduleDraftErrors = Partial<Record<"contactId" | "body" | "sendAt", "required" | "past" | "tooLong">>;

/** `datetime-local` value of an instant, in the browser's zone. */
export const toLocalInput = (d: Date) => format(d, "yyyy-MM-dd'T'HH:mm");

/** The same rules the server applies (shared schema), plus a time in the future by the browser's clock. */
export const validateScheduleDraft = (draft: ScheduleDraft, now: Date): ScheduleDraftErrors => {
  const errors: ScheduleDraftErrors = {};
  if (draft.contactId === null) errors.contactId = "required";
  const body = scheduleSchema.shape.body.safeParse(draft.body);
  if (!body.success) errors.body = draft.body.trim() ? "tooLong" : "required";
  const when = draft.sendAt ? new Date(draft.sendAt) : null;
  if (!when || Number.isNaN(when.getTime())) errors.sendAt = "required";
  else if (when.getTime() <= now.getTime()) errors.sendAt = "past";
  return errors;
};
