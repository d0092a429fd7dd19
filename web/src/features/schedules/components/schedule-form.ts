import { format } from "date-fns";
import { scheduleBodySchema } from "@atende/shared/domain/schedules/schedule";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";

/**
 * The dialog's fields as typed: `sendAt` is a `datetime-local` value in the browser's zone ("2026-11-22T15:30").
 * `template` is set when the message is an approved template (Cloud API connections): the text is then not asked.
 */
export type ScheduleDraft = { contactId: number | null; body: string; sendAt: string; whatsappId: number | null; template?: { chosen: TemplateSend | null } };
export type ScheduleDraftErrors = Partial<Record<"contactId" | "body" | "sendAt" | "template", "required" | "past" | "tooLong" | "templateRequired">>;

/** `datetime-local` value of an instant, in the browser's zone. */
export const toLocalInput = (d: Date) => format(d, "yyyy-MM-dd'T'HH:mm");

/** The same rules the server applies (shared schema), plus a time in the future by the browser's clock. */
export const validateScheduleDraft = (draft: ScheduleDraft, now: Date): ScheduleDraftErrors => {
  const errors: ScheduleDraftErrors = {};
  if (draft.contactId === null) errors.contactId = "required";
  if (draft.template) {
    if (!draft.template.chosen) errors.template = "templateRequired";
  } else {
    const body = scheduleBodySchema.safeParse(draft.body);
    if (!body.success) errors.body = "tooLong";
    else if (!body.data) errors.body = "required";
  }
  const when = draft.sendAt ? new Date(draft.sendAt) : null;
  if (!when || Number.isNaN(when.getTime())) errors.sendAt = "required";
  else if (when.getTime() <= now.getTime()) errors.sendAt = "past";
  return errors;
};
