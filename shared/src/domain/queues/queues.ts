import * as z from "zod";
import { num, optionalId, optionalText, orNone, requiredId } from "../../contracts/body-values";
import { NAME_MAX, NAME_MIN, QUEUE_COLOR_MAX, QUEUE_COLOR_MIN, WEEKDAYS } from "../../constants/business";

/** The queue modal's fixed palette: 49 colours (7 x 7 grid). */
export const QUEUE_COLORS = [
  "#B80000", "#DB3E00", "#FCCB00", "#008B02", "#006B76", "#1273DE", "#004DCF",
  "#5300EB", "#EB9694", "#FAD0C3", "#FEF3BD", "#C1E1C5", "#BEDADC", "#C4DEF6",
  "#BED3F3", "#D4C4FB", "#F44336", "#E91E63", "#9C27B0", "#673AB7", "#3F51B5",
  "#2196F3", "#03A9F4", "#00BCD4", "#009688", "#4CAF50", "#8BC34A", "#CDDC39",
  "#FFEB3B", "#FFC107", "#FF9800", "#FF5722", "#795548", "#607D8B", "#9E9E9E",
  "#000000", "#B71C1C", "#880E4F", "#4A148C", "#311B92", "#1A237E", "#0D47A1",
  "#01579B", "#006064", "#004D40", "#1B5E20", "#33691E", "#827717", "#F57F17",
] as const;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** One day of working hours (HH:MM). */
export const scheduleEntrySchema = z.object({
  weekday: z.string().min(1).max(20),
  weekdayEn: z.enum(WEEKDAYS.map((w) => w.weekdayEn) as [string, ...string[]]),
  startTime: z.string().regex(HHMM, "HH:MM"),
  endTime: z.string().regex(HHMM, "HH:MM"),
});
export type ScheduleEntry = z.infer<typeof scheduleEntrySchema>;
export const schedulesSchema = z.array(scheduleEntrySchema).max(7 * 4);

/** Minutes of a target (digits as text too); none: null, false or "" as spec-style clients send. */
const slaMinutes = orNone(num(z.number().int().min(1).max(60 * 24 * 90))).default(null);
/** A queue's SLA policy: first response, optional next response, resolution (minutes of business time). */
export const slaPolicySchema = z.object({ firstResponseMinutes: slaMinutes, nextResponseMinutes: slaMinutes, resolutionMinutes: slaMinutes });

const queueFields = {
  name: z.string().trim().min(NAME_MIN, "Too Short!").max(NAME_MAX, "Too Long!"),
  color: z.string().trim().min(QUEUE_COLOR_MIN, "Too Short!").max(QUEUE_COLOR_MAX, "Too Long!"),
  greetingMessage: optionalText(z.string().max(5000)),
  outOfHoursMessage: optionalText(z.string().max(5000)),
  orderQueue: z.union([z.coerce.number().int().min(0).max(9999), z.literal("").transform(() => null)]).nullable().optional(),
  integrationId: optionalId(),
  /** issue 30: a published flow started for a new conversation in this queue */
  flowId: optionalId(),
  promptId: optionalId(),
  schedules: schedulesSchema.optional(),
  /** issue 13: SLA targets in business minutes; null: no SLA */
  sla: slaPolicySchema.nullable().optional(),
};

/** POST /queue (spec 2 section 5). */
export const queueSchema = z.object({
  ...queueFields,
  greetingMessage: queueFields.greetingMessage.default(""),
  outOfHoursMessage: queueFields.outOfHoursMessage.default(""),
});
export type QueueInput = z.infer<typeof queueSchema>;
/** PUT /queue/{id}: any subset of the fields, no defaults (an absent field keeps its value). */
export const queueUpdateSchema = z.object(queueFields).partial();

/** POST /queue-options and PUT /queue-options/{id}: a node of a queue's chatbot tree. */
export const queueOptionSchema = z.object({
  queueId: requiredId(),
  /** null or absent (or any "none" value) for a top-level option */
  parentId: optionalId(),
  title: z.string().trim().min(1, "Required").max(200),
  message: optionalText(z.string().max(5000)).default(""),
  option: z.union([z.coerce.number().int().min(0).max(999), z.string().trim().max(10)]).optional(),
});
export type QueueOptionInput = z.infer<typeof queueOptionSchema>;
export const queueOptionUpdateSchema = z.object({
  title: queueOptionSchema.shape.title.optional(),
  message: optionalText(z.string().max(5000)).optional(),
  option: queueOptionSchema.shape.option,
});

/** GET /queue-options query: parentId -1 (or absent) is the top level. */
export const queueOptionListQuerySchema = z.object({
  queueId: z.coerce.number().int().positive(),
  parentId: z.coerce.number().int().min(-1).optional(),
});
