import * as z from "zod";

/**
 * Realtime contract (spec 1 section 7 "Realtime").
 * Server -> browser frames: `{ channel, event, data }` where `channel` is e.g. `company-1-ticket`
 * and `event` is the event name used by the spec (ticket, appMessage, whatsappSession, auth ...).
 * Browser -> server frames: `{ action, data }` (API Gateway route selection on `$request.body.action`).
 */
export const REALTIME_EVENTS = [
  "whatsapp",
  "whatsappSession",
  "user",
  "chat",
  "appMessage",
  "ticket",
  "contact",
  "presence",
  "auth",
  "announcement",
  "payment",
  "queue",
  "tag",
  "setting",
  "campaign",
  "schedule",
  "quickmessage",
  "contactList",
  // spec 3 channels company-{id}-ContactList and company-{id}-ContactListItem
  "ContactList",
  "ContactListItem",
  "queueIntegration",
  "prompt",
  "file",
  // LGPD (docs/adr/0030): export/erasure job progress to the company's admins; opt-out list changes
  "lgpd",
  "optOut",
  // reports (docs/adr/0034): an export's progress, to the user who asked for it
  "report",
  // issue 13 (docs/adr/0033): an SLA clock of a ticket turned amber or fell due (the owner, else the queue and admins)
  "sla",
  // issue 34 (docs/adr/0102): a whisper to the ticket's attendant (WhisperEventData)
  "whisper",
] as const;
export type RealtimeEvent = (typeof REALTIME_EVENTS)[number];

export const companyChannel = (companyId: number, event: RealtimeEvent) => `company-${companyId}-${event}`;

export type ServerFrame<T = unknown> = { channel: string; event: RealtimeEvent; data: T };

export const clientFrameSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("joinNotification") }),
  z.object({ action: z.literal("leaveNotification") }),
  z.object({ action: z.literal("joinTickets"), data: z.enum(["open", "pending", "closed"]) }),
  z.object({ action: z.literal("leaveTickets"), data: z.enum(["open", "pending", "closed"]) }),
  z.object({ action: z.literal("joinChatBox"), data: z.string().max(64) }),
  z.object({ action: z.literal("leaveChatBox"), data: z.string().max(64) }),
  z.object({ action: z.literal("userStatus") }),
  z.object({ action: z.literal("ping") }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

/** The `auth` event data when a newer login ended this session (`user.id`: the spec's clients compare it with theirs). */
export type AuthEventData = { action: "logout"; reason: "other-session"; user: { id: number } };
