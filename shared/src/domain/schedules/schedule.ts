import * as z from "zod";
import { optionalId, orNone, requiredId } from "../../contracts/body-values";
import { templateSendSchema, type TemplateSend } from "../cloud-api/message-templates";
import { WALL_TIME } from "../format/time-zone";

/** Statuses of a scheduled message (Portuguese values, as the reference product stores them). */
export const SCHEDULE_STATUSES = ["PENDENTE", "ENVIADA", "ERRO"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export const SCHEDULE_BODY_MAX = 4_096;

/**
 * A scheduled message, defined once: the stored record. The view (contracts/http/schedules.ts) shows the author and
 * the contact as relations instead of the names copied at scheduling time.
 */
export type Schedule = {
  id: number;
  companyId: number;
  userId: number;
  userName: string;
  contactId: number;
  contactName: string;
  contactNumber: string;
  /** null: the company's default connection at send time */
  whatsappId: number | null;
  body: string;
  sendAt: string;
  status: ScheduleStatus;
  sentAt: string | null;
  /** the failure reason when status is ERRO (an ERR_ code) */
  errorMessage: string | null;
  /** the ticket the message went into, once sent */
  ticketId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  /**
   * Cloud API connections (issue 12): the approved message template sent instead of free text (whatever the 24-hour
   * window); `body` then holds its preview. Absent or null: the plain schedule of the spec.
   */
  template?: TemplateSend | null;
  createdAt: string;
  updatedAt: string;
};

/** The fields of a schedule body, each optional: PUT takes any of them; POST's rules are on `scheduleSchema`. */
const scheduleFields = z.object({
  body: z.string({ error: "Required" }).trim().max(SCHEDULE_BODY_MAX, "Too Long!").optional(),
  sendAt: z.union([z.iso.datetime({ offset: true }), z.string().regex(WALL_TIME)], { error: "Required" }),
  contactId: requiredId("Required"),
  whatsappId: optionalId(),
  /** Cloud API connections: a template instead of the text (null/false/"": none, the text is sent) */
  template: orNone(templateSendSchema).optional(),
});

/**
 * POST /schedules body. `sendAt` is an ISO 8601 instant with its offset (our browser sends `toISOString()`), or the
 * spec's `YYYY-MM-DD HH:mm:ss`, a wall-clock time read in the company's time zone — never the server's. `whatsappId` null or absent: the company's default connection at send
 * time. Whether `sendAt` is in the future is checked by the server against its clock (and by the form against the
 * browser's). Unknown fields (companyId, userId, status ...) are dropped. The text is required unless a `template`
 * is given (a Cloud API schedule; the server checks the template against the connection).
 */
export const scheduleSchema = scheduleFields.superRefine((v, ctx) => {
  if (!v.template && !v.body) ctx.addIssue({ code: "custom", path: ["body"], message: "Required" });
});
export type ScheduleInput = z.infer<typeof scheduleSchema>;

/** The text of a schedule as the form and the server check it (the template, when chosen, replaces it). */
export const scheduleBodySchema = scheduleFields.shape.body;

/** PUT /schedules/{id} body: any of the fields. */
export const scheduleUpdateSchema = scheduleFields.partial();
export type ScheduleUpdateInput = z.infer<typeof scheduleUpdateSchema>;

/** A send time the server accepts: strictly after `now`. */
export const isFutureSendAt = (sendAt: string, now: Date) => new Date(sendAt).getTime() > now.getTime();
