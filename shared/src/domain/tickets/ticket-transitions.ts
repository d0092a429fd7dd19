import type { ErrorCode } from "../../errors/error-codes";
import { can, type Permission, type Profile } from "../permissions/permissions";
import type { TicketStatus } from "./ticket";

/**
 * The ticket state machine (spec 1 section 4, SERVER-RULES "Ticket changes") as one table:
 * status × action → next status, owner, queue, connection, who may do it, side effects, refusals.
 * Pure data and pure functions: the server's PUT /tickets/{id} and DELETE read it, and so do the web app's buttons.
 */

/** What a user can do to a ticket from its buttons. */
export const TICKET_ACTIONS = ["accept", "return", "resolve", "reopen", "transfer", "delete"] as const;
export type TicketAction = (typeof TICKET_ACTIONS)[number];
/** A PUT /tickets/{id} body's lifecycle step: the user actions, plus the legacy `update` (closed → pending, owner kept). */
export type TicketUpdateAction = Exclude<TicketAction, "delete"> | "update";

/** The owner (userId) after the action. */
export type OwnerRule =
  /** the caller, unless the body names the ticket's owner */
  | "me"
  /** cleared */
  | "none"
  /** unchanged */
  | "kept"
  /** the user the body names; none when it names none (and then the ticket is pending) */
  | "chosen";

/**
 * What else happens. Customer messages are sent by the server, never the browser, and never to groups:
 * - greeting: with the setting sendGreetingAccepted enabled, "{{greeting}} *{{name}}*, meu nome é *<owner>*…";
 * - transferNotice: with sendMsgTransfTicket enabled, the new queue and attendant;
 * - ratingRequest: with userRating enabled and an owner, the rating request (1/2/3) and the rating wait;
 * - completionMessage: otherwise, the connection's completion message;
 * - clearUnread: the unread count goes to 0;
 * - clearRating: a new cycle starts, the previous rating no longer counts;
 * - takeLock / releaseLock: the contact+connection lock (one pending/open ticket per contact and connection).
 * Two rules hold for every row (see `effectsOf`): a change that leaves the ticket open or closed ends the bot
 * (`endBot`), and a closed ticket going back to pending starts a new cycle (`clearRating`).
 */
export type TicketEffect =
  | "greeting"
  | "transferNotice"
  | "ratingRequest"
  | "completionMessage"
  | "clearUnread"
  | "clearRating"
  | "endBot"
  | "takeLock"
  | "releaseLock";

/** The settings that gate customer messages. */
export const EFFECT_SETTINGS = {
  greeting: "sendGreetingAccepted",
  transferNotice: "sendMsgTransfTicket",
  ratingRequest: "userRating",
} as const satisfies Partial<Record<TicketEffect, string>>;

export type TicketTransition = {
  /** statuses the action applies to */
  from: readonly TicketStatus[];
  /** next status; `byOwner` (transfer): pending without an owner, else the asked status, or open when closed, else unchanged */
  to: TicketStatus | "byOwner" | "removed";
  owner: OwnerRule;
  queue: "kept" | "chosen";
  connection: "kept" | "chosen";
  /** `viewer`: anyone who may see the ticket (canSeeTicket); otherwise the permission needed */
  who: "viewer" | Permission;
  effects: readonly TicketEffect[];
  /** refusals besides ERR_NO_TICKET_FOUND (gone) and ERR_NO_PERMISSION (not visible / not allowed) */
  errors: readonly ErrorCode[];
};

export const TICKET_TRANSITIONS: Readonly<Record<TicketUpdateAction | "delete", TicketTransition>> = {
  accept: { from: ["pending"], to: "open", owner: "me", queue: "kept", connection: "kept", who: "viewer", effects: ["greeting"], errors: ["ERR_NO_USER_FOUND"] },
  return: { from: ["open"], to: "pending", owner: "none", queue: "kept", connection: "kept", who: "viewer", effects: [], errors: [] },
  resolve: {
    from: ["pending", "open"],
    to: "closed",
    owner: "kept",
    queue: "kept",
    connection: "kept",
    who: "viewer",
    effects: ["clearUnread", "releaseLock", "ratingRequest", "completionMessage"],
    errors: [],
  },
  reopen: {
    from: ["closed"],
    to: "open",
    owner: "me",
    queue: "kept",
    connection: "kept",
    who: "viewer",
    effects: ["clearRating", "takeLock"],
    errors: ["ERR_NO_USER_FOUND", "ERR_OTHER_OPEN_TICKET"],
  },
  transfer: {
    from: ["pending", "open", "closed"],
    to: "byOwner",
    owner: "chosen",
    queue: "chosen",
    connection: "chosen",
    who: "viewer",
    effects: ["transferNotice", "takeLock"],
    errors: ["ERR_NOT_FOUND", "ERR_NO_USER_FOUND", "ERR_NO_WAPP_FOUND", "ERR_OTHER_OPEN_TICKET"],
  },
  update: { from: ["closed"], to: "pending", owner: "kept", queue: "kept", connection: "kept", who: "viewer", effects: ["clearRating", "takeLock"], errors: ["ERR_OTHER_OPEN_TICKET"] },
  delete: {
    from: ["pending", "open", "closed"],
    to: "removed",
    owner: "none",
    queue: "kept",
    connection: "kept",
    who: "ticket-options:deleteTicket",
    effects: ["releaseLock"],
    errors: [],
  },
};

/** Is `action` (e.g. a recorded change's action) one of the table's PUT rows? */
export const isTicketUpdateAction = (action: string): action is TicketUpdateAction => action !== "delete" && Object.hasOwn(TICKET_TRANSITIONS, action);

/** May `profile` (who can see the ticket) do `action` at all, whatever the ticket's status? */
export const mayDo = (action: TicketAction, profile: Profile | null | undefined): boolean => {
  const who = TICKET_TRANSITIONS[action].who;
  return who === "viewer" ? !!profile : can(profile, who);
};

/** May `profile` (who can see the ticket) do `action` to a ticket in `status`? */
export const canDo = (action: TicketAction, status: TicketStatus, profile: Profile | null | undefined): boolean =>
  TICKET_TRANSITIONS[action].from.includes(status) && mayDo(action, profile);

/** The actions offered for a ticket in `status`, in TICKET_ACTIONS order (what the buttons show). */
export const actionsFor = (status: TicketStatus, profile: Profile | null | undefined): TicketAction[] =>
  TICKET_ACTIONS.filter((a) => canDo(a, status, profile));

/** Who the ticket belongs to and where it sits: what the lifecycle changes. */
export type TicketPlace = { status: TicketStatus; userId: number | null; queueId: number | null; whatsappId: number | null };
/** The lifecycle part of a PUT /tickets/{id} body. */
export type TicketChangeRequest = { status?: TicketStatus; userId?: number | null; queueId?: number | null; whatsappId?: number | null };
export type TicketChangePlan = { action: TicketUpdateAction; next: TicketPlace; effects: TicketEffect[] };

/**
 * Which row a body asks for. A body that names another queue or connection, or a user who is neither the owner nor
 * the caller, is a transfer; otherwise the asked status picks the row whose `from` holds the current status.
 * Null: the body changes nothing of the lifecycle (same status, or only the caller/owner named).
 */
export const actionOf = (t: TicketPlace, req: TicketChangeRequest, me: number): TicketUpdateAction | null => {
  const transfer =
    (req.queueId !== undefined && req.queueId !== t.queueId) ||
    (req.whatsappId !== undefined && req.whatsappId !== t.whatsappId) ||
    (req.userId !== undefined && req.userId !== t.userId && req.userId !== me);
  if (transfer) return "transfer";
  if (req.status === undefined || req.status === t.status) return null;
  const rows = Object.entries(TICKET_TRANSITIONS) as [TicketUpdateAction | "delete", TicketTransition][];
  const found = rows.find(([a, row]) => a !== "transfer" && a !== "delete" && row.from.includes(t.status) && row.to === req.status);
  return found ? (found[0] as TicketUpdateAction) : null;
};

const ownerOf = (rule: OwnerRule, t: TicketPlace, req: TicketChangeRequest, me: number): number | null => {
  if (rule === "me") return req.userId ?? me;
  if (rule === "none") return null;
  if (rule === "chosen") return req.userId ?? null;
  return t.userId;
};

/** The effects of `action` from `before` to `after`: the row's own, narrowed by the two rules every row follows. */
export const effectsOf = (action: TicketUpdateAction, before: TicketPlace, after: TicketPlace): TicketEffect[] => {
  const row = TICKET_TRANSITIONS[action];
  const out = row.effects.filter((e) => {
    if (e === "takeLock") return before.status === "closed" && after.status !== "closed";
    if (e === "releaseLock") return before.status !== "closed" && after.status === "closed";
    if (e === "clearRating") return before.status === "closed" && (action === "reopen" || after.status === "pending");
    return true;
  });
  if (after.status !== "pending") out.push("endBot");
  if (before.status === "closed" && after.status === "pending" && !out.includes("clearRating")) out.push("clearRating");
  return out;
};

/** The lifecycle change a PUT /tickets/{id} body asks of ticket `t` by user `me`; null when it asks none. */
export const planTicketChange = (t: TicketPlace, req: TicketChangeRequest, me: number): TicketChangePlan | null => {
  const action = actionOf(t, req, me);
  if (!action) return null;
  const row = TICKET_TRANSITIONS[action];
  const userId = ownerOf(row.owner, t, req, me);
  const queueId = row.queue === "chosen" && req.queueId !== undefined ? req.queueId : t.queueId;
  const whatsappId = row.connection === "chosen" && req.whatsappId != null ? req.whatsappId : t.whatsappId;
  let status: TicketStatus;
  if (row.to === "byOwner") status = userId === null ? "pending" : (req.status ?? (t.status === "closed" ? "open" : t.status));
  else if (row.to === "removed") throw new Error("delete is not a PUT");
  else status = row.to;
  const next = { status, userId, queueId, whatsappId };
  return { action, next, effects: effectsOf(action, t, next) };
};

/** Customer messages a change sends, given the company's settings (the server sends them; never to groups). */
export const customerNotices = (
  action: TicketUpdateAction,
  ctx: { isGroup: boolean; hasOwner: boolean; setting: (key: (typeof EFFECT_SETTINGS)[keyof typeof EFFECT_SETTINGS]) => string },
): ("greeting" | "transferNotice" | "ratingRequest" | "completionMessage")[] => {
  if (ctx.isGroup) return [];
  const effects = TICKET_TRANSITIONS[action].effects;
  const out: ("greeting" | "transferNotice" | "ratingRequest" | "completionMessage")[] = [];
  if (effects.includes("greeting") && ctx.setting(EFFECT_SETTINGS.greeting) === "enabled") out.push("greeting");
  if (effects.includes("transferNotice") && ctx.setting(EFFECT_SETTINGS.transferNotice) === "enabled") out.push("transferNotice");
  if (effects.includes("ratingRequest") && ctx.setting(EFFECT_SETTINGS.ratingRequest) === "enabled" && ctx.hasOwner) out.push("ratingRequest");
  else if (effects.includes("completionMessage")) out.push("completionMessage");
  return out;
};
