import * as z from "zod";
import { CONNECTION_STATUSES } from "../constants/business";
import type { Contact } from "../domain/contacts/contact";
import { MEDIA_TYPES } from "../domain/messages/message";
import { TICKET_STATUSES } from "../domain/tickets/ticket";
import type { ContactEventData } from "./http/contacts";
import type { MessageView, PresenceEventData } from "./http/messages";
import type { TicketEventData, TicketView } from "./http/tickets";
import type { UserResponse } from "./http/users";
import type { WhatsappResponse } from "./http/whatsapps";
import type { AuthEventData, RealtimeEvent } from "./ws-events";

/**
 * Each realtime event's payload as a schema (ADR 0068): the entity an event carries has the shape the HTTP API
 * answers for it (`user` as GET /users/{id}, `ticket` as GET /tickets, `whatsapp` as GET /whatsapp/{id}, ...),
 * because the spec's clients put the event's entity in place of the one they hold. The entity schemas are typed
 * against the HTTP response types (`z.ZodType<UserResponse>`): a field the response has and the schema lacks does
 * not compile. Unknown fields pass (zod's default), so a newer field never breaks a client.
 * The tests check every frame any test sends against this table (functions/src/testing/checked-sender.ts).
 */

const id = z.number().int().positive();
const iso = z.string().min(10);
const named = z.object({ id, name: z.string() });
const coloured = z.object({ id, name: z.string(), color: z.string() });
/** an entity of a feature whose response type is not restated here: an object with its id */
const record = z.looseObject({ id });

export const userResponseSchema: z.ZodType<UserResponse> = z.object({
  id,
  name: z.string(),
  email: z.string(),
  profile: z.enum(["admin", "user", "supervisor"]),
  super: z.boolean(),
  online: z.boolean(),
  companyId: id,
  whatsappId: id.nullable(),
  allTicket: z.enum(["enabled", "desabled"]),
  queueIds: z.array(id),
  queues: z.array(coloured),
  whatsapp: named.nullable(),
  createdAt: iso,
});

export const contactSchema: z.ZodType<Contact> = z.object({
  id,
  companyId: id,
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  lid: z.string().nullable(),
  whatsappId: id.nullable(),
  extraInfo: z.array(z.object({ name: z.string(), value: z.string() })),
  createdAt: iso,
  updatedAt: iso,
});

/** the ticket's contact as the ticket list carries it (and `appMessage` beside the ticket) */
const ticketContact = z
  .object({
    id,
    name: z.string(),
    number: z.string(),
    email: z.string(),
    profilePicUrl: z.string(),
    isGroup: z.boolean(),
    extraInfo: z.array(z.object({ name: z.string(), value: z.string() })),
  })
  .nullable();

const slaClock = z.looseObject({ targetMinutes: z.number(), dueAt: iso.nullable(), metAt: iso.nullable(), warnedAt: iso.nullable(), breachedAt: iso.nullable() });

export const ticketViewSchema: z.ZodType<TicketView> = z.object({
  id,
  uuid: z.string(),
  status: z.enum(TICKET_STATUSES),
  userId: id.nullable(),
  user: named.nullable(),
  queueId: id.nullable(),
  queue: coloured.nullable(),
  whatsappId: id.nullable(),
  whatsapp: z.object({ id, name: z.string(), status: z.string(), provider: z.string().optional() }).nullable(),
  contactId: id,
  contact: ticketContact,
  lastMessage: z.string(),
  updatedAt: iso,
  createdAt: iso,
  unreadMessages: z.number().int().nonnegative(),
  tags: z.array(coloured),
  presence: z.enum(["composing", "recording"]).nullable(),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  useIntegration: z.boolean(),
  promptId: id.nullable(),
  integrationId: id.nullable(),
  protocol: z.string().nullable().optional(),
  sla: z.object({ firstResponse: slaClock.nullable(), nextResponse: slaClock.nullable(), resolution: slaClock.nullable() }).nullable().optional(),
  version: z.number().int().optional(),
});

export const messageViewSchema: z.ZodType<MessageView> = z.object({
  id: z.string().min(1),
  companyId: id,
  ticketId: id,
  contactId: id,
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.enum(MEDIA_TYPES),
  mediaUrl: z.string().nullable(),
  mediaMimetype: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaExpiredAt: iso.nullable().optional(),
  quotedMsgId: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  isForwarded: z.boolean(),
  ack: z.number().int(),
  error: z.string().nullable(),
  reactions: z.array(z.object({ emoji: z.string(), fromMe: z.boolean(), senderJid: z.string() })),
  participant: z.string().nullable(),
  transcript: z.string().nullable().optional(),
  transcriptCut: z.boolean().optional(),
  isRepeat: z.boolean().optional(),
  internal: z.boolean().optional(),
  queueId: id.nullable(),
  userId: id.nullable(),
  createdAt: iso,
  updatedAt: iso,
  quotedMsg: z.object({ id: z.string(), body: z.string(), fromMe: z.boolean(), mediaType: z.enum(MEDIA_TYPES) }).nullable(),
  contact: z.object({ id, name: z.string(), number: z.string() }).nullable(),
});

const schedule = z.object({ weekday: z.string(), weekdayEn: z.string(), startTime: z.string(), endTime: z.string() });

/** GET /whatsapp/{id}; `cloudApi` (the Cloud API settings) is checked as an object only. */
export const whatsappResponseSchema: z.ZodType<WhatsappResponse> = z.object({
  id,
  name: z.string(),
  number: z.string(),
  status: z.enum(CONNECTION_STATUSES),
  isDefault: z.boolean(),
  channel: z.enum(["simulator", "baileys"]),
  provider: z.string(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  expiresInactiveMessage: z.string(),
  expiresTicket: z.number(),
  timeUseBotQueues: z.number(),
  maxUseBotQueues: z.number(),
  timeToTransfer: z.number().nullable(),
  transferQueueId: id.nullable(),
  promptId: id.nullable(),
  integrationId: id.nullable(),
  queueIds: z.array(id),
  token: z.string(),
  qrcode: z.string(),
  retries: z.number(),
  createdAt: iso,
  updatedAt: iso,
  queues: z.array(z.object({ id, name: z.string(), color: z.string(), greetingMessage: z.string() })),
  schedules: z.array(schedule),
  disconnectReason: z.string().nullable(),
  pairingCode: z.string().nullable(),
  cloudApi: z.custom<NonNullable<WhatsappResponse["cloudApi"]>>((v) => typeof v === "object" && v !== null && typeof (v as { phoneNumberId?: unknown }).phoneNumberId === "string").nullable().optional(),
});

/** `{ action: "delete", <key>: id }` */
const deleted = (key: string) => z.object({ action: z.literal("delete"), [key]: id });
/** `{ action: "create" | "update", <key>: entity }` */
const saved = (key: string, entity: z.ZodType = record) => z.object({ action: z.enum(["create", "update"]), [key]: entity });

const ticketEvent: z.ZodType<TicketEventData> = z.discriminatedUnion("action", [
  z.object({ action: z.literal("update"), ticket: ticketViewSchema }),
  z.object({ action: z.literal("updateUnread"), ticketId: id }),
  z.object({ action: z.literal("delete"), ticketId: id }),
]);

const contactEvent: z.ZodType<ContactEventData> = z.discriminatedUnion("action", [
  z.object({ action: z.literal("update"), contact: contactSchema }),
  z.object({ action: z.literal("delete"), contactId: id }),
  z.object({
    action: z.literal("reload"),
    import: z.object({ requestId: z.string(), done: z.boolean(), error: z.string().optional(), progress: z.object({ merged: z.number(), total: z.number() }).optional() }).optional(),
  }),
]);

const presenceEvent: z.ZodType<PresenceEventData> = z.object({ ticketId: id, presence: z.enum(["composing", "recording", "available", "unavailable", "paused"]) });
const authEvent: z.ZodType<AuthEventData> = z.object({ action: z.literal("logout"), reason: z.literal("other-session"), user: z.object({ id }) });

/** The event name → its payload's schema. Every RealtimeEvent has one (the `Record` type makes a new event add its row). */
export const REALTIME_PAYLOADS: Record<RealtimeEvent, z.ZodType> = {
  whatsapp: z.discriminatedUnion("action", [z.object({ action: z.literal("update"), whatsapp: whatsappResponseSchema }), deleted("whatsappId")]),
  whatsappSession: z.object({ action: z.literal("update"), session: whatsappResponseSchema }),
  user: z.discriminatedUnion("action", [
    z.object({ action: z.enum(["create", "update"]), user: userResponseSchema }),
    deleted("userId"),
    // an attendant's status (docs/adr/0032): the agent view, not a user
    z.object({ action: z.literal("status"), agent: z.looseObject({ userId: id }) }),
  ]),
  chat: z.discriminatedUnion("action", [
    saved("chat", z.looseObject({ id, uuid: z.string(), title: z.string(), users: z.array(z.unknown()) })),
    z.object({ action: z.literal("delete"), id }),
    z.object({ action: z.literal("new-message"), newMessage: z.looseObject({ id: z.string(), chatId: id, message: z.string() }), chat: z.looseObject({ id }) }),
  ]),
  appMessage: z.object({ action: z.enum(["create", "update"]), message: messageViewSchema, ticket: ticketViewSchema, contact: ticketContact }),
  ticket: ticketEvent,
  contact: contactEvent,
  presence: presenceEvent,
  auth: authEvent,
  announcement: z.discriminatedUnion("action", [saved("record"), z.object({ action: z.literal("delete"), id })]),
  payment: z.object({ action: z.literal("CONCLUIDA"), invoiceId: id, company: z.object({ id, dueDate: z.string() }) }),
  queue: z.discriminatedUnion("action", [saved("queue"), deleted("queueId")]),
  tag: z.discriminatedUnion("action", [saved("tag"), deleted("tagId")]),
  setting: z.discriminatedUnion("action", [
    z.object({ action: z.literal("update"), setting: z.looseObject({ key: z.string() }) }),
    z.object({ action: z.enum(["holidayUpdate", "holidayDelete"]), holiday: z.looseObject({}) }),
  ]),
  campaign: z.discriminatedUnion("action", [saved("record"), z.object({ action: z.literal("delete"), id })]),
  schedule: z.discriminatedUnion("action", [saved("schedule"), deleted("scheduleId")]),
  quickmessage: z.discriminatedUnion("action", [saved("record"), z.object({ action: z.literal("delete"), id })]),
  contactList: z.discriminatedUnion("action", [saved("record"), z.object({ action: z.literal("delete"), id })]),
  ContactList: z.discriminatedUnion("action", [saved("record"), z.object({ action: z.literal("delete"), id })]),
  ContactListItem: z.discriminatedUnion("action", [
    saved("record", z.looseObject({ id, contactListId: id })),
    z.object({ action: z.literal("delete"), id, contactListId: id }),
    z.object({ action: z.literal("reload"), contactListId: id }),
  ]),
  queueIntegration: z.discriminatedUnion("action", [saved("queueIntegration"), deleted("integrationId")]),
  prompt: z.discriminatedUnion("action", [saved("prompt"), deleted("promptId")]),
  file: z.discriminatedUnion("action", [saved("fileList"), deleted("fileId")]),
  lgpd: z.object({ action: z.literal("update"), job: z.looseObject({ id: z.union([id, z.string()]) }) }),
  optOut: z.object({ action: z.enum(["create", "delete"]), optOut: z.looseObject({}) }),
  report: z.object({ action: z.literal("update"), job: z.looseObject({ id: z.union([id, z.string()]) }) }),
  // issue 34 (docs/adr/0102): a supervisor whispered to the ticket's attendant (to that attendant only)
  whisper: z.object({ action: z.literal("create"), ticketId: id, message: messageViewSchema, from: named }),
  sla: z.object({ action: z.enum(["warning", "breach"]), kind: z.enum(["firstResponse", "nextResponse", "resolution"]), at: iso, ticket: ticketViewSchema }),
};

/** What is wrong with an event's payload, or null when it has the shape of its table row. */
export const realtimePayloadProblem = (event: string, data: unknown): string | null => {
  const schema = (REALTIME_PAYLOADS as Record<string, z.ZodType | undefined>)[event];
  if (!schema) return `unknown realtime event ${event}`;
  const out = schema.safeParse(data);
  return out.success ? null : `${event}: ${z.prettifyError(out.error)}`;
};
