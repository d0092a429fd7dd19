import * as z from "zod";
import { flag, idList, optionalId, optionalText } from "../../contracts/body-values";
import { CONNECTION_DEFAULTS, NAME_MAX, NAME_MIN } from "../../constants/business";

/**
 * The connection form (POST /whatsapp, PUT /whatsapp/{id}): spec 2 sections 3, 5 and 9.
 * Shared by the web modal and the API. Number fields accept the form's strings; "" means none.
 */
/** absent is "none" too: the connection form is always sent whole */
const optionalFormId = optionalId().transform((v) => v ?? null);
const count = (fallback: number) => z.preprocess((v) => (v === "" || v === null || v === undefined ? fallback : v), z.coerce.number().int().min(0).max(100_000));
const text = optionalText(z.string().max(4_000)).default("");
const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

export const whatsappScheduleSchema = z.object({ weekday: z.string().max(20), weekdayEn: z.string().max(10), startTime: time, endTime: time });

export const whatsappFormSchema = z.object({
  name: z.string({ error: "Required" }).trim().min(1, "Required").min(NAME_MIN, "Too Short!").max(NAME_MAX, "Too Long!"),
  isDefault: flag().default(false),
  greetingMessage: text,
  complationMessage: text,
  outOfHoursMessage: text,
  ratingMessage: text,
  expiresInactiveMessage: text,
  provider: z.string().max(20).default(CONNECTION_DEFAULTS.provider),
  expiresTicket: count(CONNECTION_DEFAULTS.expiresTicket),
  timeUseBotQueues: count(CONNECTION_DEFAULTS.timeUseBotQueues),
  maxUseBotQueues: count(CONNECTION_DEFAULTS.maxUseBotQueues),
  /** minutes before a waiting ticket moves to transferQueueId; empty: never */
  timeToTransfer: z.preprocess((v) => (v === "" || v === undefined ? null : v), z.coerce.number().int().min(0).max(100_000).nullable()),
  transferQueueId: optionalFormId,
  promptId: optionalFormId,
  integrationId: optionalFormId,
  /** issue 30: a published flow started for a new conversation on this connection (before the queue's) */
  flowId: optionalFormId,
  queueIds: idList(100).default([]),
  schedules: z.array(whatsappScheduleSchema).max(7).default([]),
});
export type WhatsappFormInput = z.input<typeof whatsappFormSchema>;
export type WhatsappForm = z.infer<typeof whatsappFormSchema>;

/** The modal's empty form with the spec's defaults. */
export const WHATSAPP_FORM_DEFAULTS: WhatsappForm = {
  name: "",
  isDefault: false,
  greetingMessage: "",
  complationMessage: "",
  outOfHoursMessage: "",
  ratingMessage: "",
  expiresInactiveMessage: "",
  provider: CONNECTION_DEFAULTS.provider,
  expiresTicket: CONNECTION_DEFAULTS.expiresTicket,
  timeUseBotQueues: CONNECTION_DEFAULTS.timeUseBotQueues,
  maxUseBotQueues: CONNECTION_DEFAULTS.maxUseBotQueues,
  timeToTransfer: null,
  transferQueueId: null,
  promptId: null,
  integrationId: null,
  flowId: null,
  queueIds: [],
  schedules: [],
};
